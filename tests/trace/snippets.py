"""Snippets the trace tests run: the runnable code of the seed documents plus hook/error cases.

Hook functions print `hook <name>`; tests/fixtures/trace_hook_order.json holds the order in
which real PyTorch prints them (recorded by tests/trace/record_hook_order.py).
"""

from __future__ import annotations

SEED_EXP_FUNCTION = """\
import torch
from torch.autograd import Function

class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result

a = torch.tensor([1.], requires_grad=True)
result = Exp.apply(a)
result.backward()
print(a.grad)
"""

SEED_SAVED = """\
import torch
x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(bool((x == y.grad_fn._saved_self).all()))
print(x is y.grad_fn._saved_self)
x = torch.randn(5, requires_grad=True)
y = x.exp()
print(bool((y == y.grad_fn._saved_result).all()))
print(y is y.grad_fn._saved_result)
y.sum().backward()
"""

SEED_NO_GRAD = """\
import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
with torch.set_grad_enabled(False):
    y = x * 2
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
x.requires_grad = False
z = x * y
z.sum().backward()
print(y.grad)
"""

SEED_NODES = """\
import torch
x = torch.tensor([1.0], requires_grad=True)
y = x + 2
z = y * 3
print(z.grad_fn)
print(z.grad_fn.next_functions)
print(z.is_leaf)
w = torch.where(x > 0, x, torch.zeros_like(x))
v = x.view(-1)
s = (z + w + v).sum()
s.backward()
print(x.grad)
"""

SEED_SUM = """\
import torch as t
a = t.randn(3, 4, requires_grad=True)
b = t.zeros(3, 4).requires_grad_()
c = a + b
d = c.sum()
d.backward()
print(a.grad)
print(a.requires_grad, b.requires_grad, c.requires_grad)
print(a.is_leaf, b.is_leaf, c.is_leaf)
x = t.ones(2, 2, requires_grad=True)
y = x * x + x
y.backward(t.ones(2, 2))
print(x.grad)
"""

HOOKS = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, -1.0], requires_grad=True)

def h_x(g):
    print("hook h_x")

def h_w(g):
    print("hook h_w")
    return g * 2

def h_y(g):
    print("hook h_y")

def h_pre(grads):
    print("hook h_pre")

def h_post(grad_inputs, grad_outputs):
    print("hook h_post")

def h_acc(p):
    print("hook h_acc")

x.register_hook(h_x)
w.register_hook(h_w)
y = x * w
y.register_hook(h_y)
y.grad_fn.register_prehook(h_pre)
y.grad_fn.register_hook(h_post)
x.register_post_accumulate_grad_hook(h_acc)
z = (y * y).sum() + y.sum()
z.backward()
print(x.grad, w.grad)
"""

BRANCHES = """\
import torch
a = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
c = a * b
d = c.exp() + c.sin()
e = (d * a).sum() + (c - b).mean()
e.backward(retain_graph=True)
e.backward()
print(a.grad, b.grad)
"""

INPLACE = """\
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
b.add_(1)
c = (b * b).sum()
c.backward()
print(a.grad)
"""

ERROR_IN_BACKWARD = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 3).exp()

def bad(g):
    raise ValueError("bad gradient")

y.register_hook(bad)
print("before")
y.sum().backward()
print("never")
"""

VERSION_ERROR = """\
import torch
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.exp()
b.add_(1)
b.sum().backward()
"""

OPTIM_STEPS = """\
import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(8, 8)
y = torch.randn(8, 2)
for step in range(3):
    opt.zero_grad()
    loss = ((net(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
w = torch.tensor([1., 2.], requires_grad=True)
(w * w).sum().backward()
with torch.no_grad():
    w -= 0.5 * w.grad
w.grad = None
print(w, round(loss.item(), 4))
"""

CUTS = """\
import torch
u = torch.tensor([1., 2., 3.], requires_grad=True)
a = u.detach() * 3
b = u.data + 1
c = u * 2
c.retain_grad()
d = torch.ones(2, requires_grad=True)
d.requires_grad_(False)
e = torch.zeros(3).requires_grad_()
with torch.inference_mode():
    f = u * 4
with torch.no_grad():
    g = u + 1
(c * e).sum().backward()
print(c.grad, e.grad, u.grad)
"""

NON_FINITE = """\
import torch
n = torch.tensor([float('nan'), 2.])
m = torch.full((10, 10), float('inf'))
m[0, 0] = 1.
q = torch.tensor([1., float('-inf')], requires_grad=True)
r = (q * n).sum()
r.backward()
print(q.grad)
"""

MODULE_HOOKS = """\
import torch
from torch import nn
lin = nn.Linear(3, 2)

def pre(m, args):
    print("hook pre")

def fwd(m, args, out):
    print("hook fwd")

def bwd_pre(m, gout):
    print("hook bwd_pre")

def bwd(m, gin, gout):
    print("hook bwd")

lin.register_forward_pre_hook(pre)
lin.register_forward_hook(fwd)
lin.register_full_backward_pre_hook(bwd_pre)
lin.register_full_backward_hook(bwd)
x = torch.randn(4, 3, requires_grad=True)
lin(x).sum().backward()
lin(x).sum().backward()
"""

MANUAL_SGD = """\
import torch
w = torch.tensor([1., 2., 3.], requires_grad=True)
for _ in range(2):
    loss = (w * w).sum()
    loss.backward()
    w.data.add_(-0.1 * w.grad.data)
    w.grad.data.zero_()
w.data[0] = 5.
print(w, w.grad, w._version)
"""

NAMED_PARAMETERS = """\
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.bn2 = nn.BatchNorm2d(4)
        self.attn = nn.MultiheadAttention(4, 2)

    def forward(self, x):
        h = self.bn2(self.conv1(x)).flatten(2).permute(2, 0, 1)
        out, _ = self.attn(h, h, h)
        return out.sum()

net = Net()
net(torch.randn(2, 1, 5, 5)).backward()
"""

# a model's inference under no_grad: every op a cut point, ReLU's (no input requiring grad) too
NO_GRAD_MODEL = """import torch
from torch import nn
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
with torch.no_grad():
    y = model(torch.ones(1, 3))
z = y * 2
"""

RUNNABLE = {
    "seed_exp_function": SEED_EXP_FUNCTION,
    "seed_saved": SEED_SAVED,
    "seed_no_grad": SEED_NO_GRAD,
    "seed_nodes": SEED_NODES,
    "seed_sum": SEED_SUM,
    "hooks": HOOKS,
    "branches": BRANCHES,
    "inplace": INPLACE,
    "optim_steps": OPTIM_STEPS,
    "cuts": CUTS,
    "non_finite": NON_FINITE,
    "module_hooks": MODULE_HOOKS,
    "named_parameters": NAMED_PARAMETERS,
    "manual_sgd": MANUAL_SGD,
    "no_grad_model": NO_GRAD_MODEL,
}
FAILING = {"error_in_backward": ERROR_IN_BACKWARD, "version_error": VERSION_ERROR}
