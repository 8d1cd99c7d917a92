import torch
import torch.nn.functional as F

torch.manual_seed(0)
a = torch.randn(2, 3, requires_grad=True)
b = torch.randn(2, 3, requires_grad=True)
m = torch.randn(3, 4, requires_grad=True)
v = torch.randn(3, requires_grad=True)
names = {}


def pack(t):
    order.append(names.get(id(t), tuple(t.shape)))
    return t


names[id(a)] = "a"
names[id(b)] = "b"
names[id(m)] = "m"
names[id(v)] = "v"
cases = {
    "mul": lambda: a * b,
    "div": lambda: a / b,
    "pow": lambda: a.pow(b),
    "atan2": lambda: torch.atan2(a, b),
    "mm": lambda: a.mm(m),
    "matmul": lambda: a @ m,
    "mv": lambda: a.mv(v),
    "dot": lambda: v.dot(v * 1),
    "max2": lambda: torch.maximum(a, b),
    "min2": lambda: torch.minimum(a, b),
    "hypot": lambda: torch.hypot(a, b),
    "linear": lambda: F.linear(a, m.t(), v[:4] if False else None),
    "addmm": lambda: torch.addmm(b[:, :1].expand(2, 4).contiguous(), a, m),
    "where": lambda: torch.where(a > 0, a, b),
    "mse": lambda: F.mse_loss(a, b),
    "bce": lambda: F.binary_cross_entropy(a.sigmoid(), b.sigmoid()),
    "xlogy": lambda: torch.xlogy(a, b),
    "lerp": lambda: torch.lerp(a, b, 0.3),
    "fmod": lambda: torch.fmod(a, b),
    "bmm": lambda: a[None].bmm(m[None]),
    "outer": lambda: torch.outer(v, v * 1),
    "cross": lambda: torch.linalg.cross(a, b),
    "addcmul": lambda: torch.addcmul(a, a, b),
    "addcdiv": lambda: torch.addcdiv(a, a, b),
    "smooth_l1": lambda: F.smooth_l1_loss(a, b),
    "huber": lambda: F.huber_loss(a, b),
    "l1": lambda: F.l1_loss(a, b),
    "kl": lambda: F.kl_div(a, b),
    "prelu": lambda: F.prelu(a, v[:1] * 1),
    "clamp": lambda: torch.clamp(a, b, b + 1),
}
for k, f in cases.items():
    order = []
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = f()
    print(k, out.grad_fn.name(), order)


# the docs' example
def pack_hook(x):
    print("Packing", x)
    return x.detach()


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
