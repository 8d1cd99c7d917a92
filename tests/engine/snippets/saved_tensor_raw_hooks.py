import torch

torch.manual_seed(0)

x = torch.randn(3, requires_grad=True)
y = x.pow(2)
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__)
print(sorted(a for a in dir(y.grad_fn) if a.startswith("_raw_saved") or a.startswith("_saved")))
log = []


def pack(t):
    log.append(("pack", tuple(t.shape)))
    return t * 1


def unpack(t):
    log.append(("unpack", tuple(t.shape)))
    return t


raw.register_hooks(pack, unpack)
print(log)
print(y.grad_fn._saved_self.shape, log)
y.sum().backward()
print(x.grad.shape, log)
try:
    raw.register_hooks(pack, unpack)
except RuntimeError as e:
    print("again:", e)

a = torch.randn(2, requires_grad=True)
b = a.exp()
try:
    b.grad_fn._raw_saved_result.register_hooks(lambda t: t)
except TypeError as e:
    print("arity:", e)
try:
    b.grad_fn._raw_saved_result.register_hooks(1, 2)
except TypeError as e:
    print("not callable:", e)
b.sum().backward()
try:
    b.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)
except RuntimeError as e:
    print("after free:", e)

c = torch.randn(2, 2, requires_grad=True)
d = c.mm(c)
print(type(d.grad_fn._raw_saved_self), type(d.grad_fn._raw_saved_mat2))
e = torch.randn(3, requires_grad=True)
f = e * 2.0
print(sorted(a for a in dir(f.grad_fn) if "saved" in a))


def bad_pack(t):
    t.mul_(2)
    return t


g = torch.randn(3, requires_grad=True)
try:
    with torch.autograd.graph.saved_tensors_hooks(bad_pack, lambda t: t):
        h = g.sin()
    print(h)
except RuntimeError as e:
    print("in place pack:", e)

# --- rewrapping, what the pack hook receives, custom Functions
x = torch.randn(3, requires_grad=True)
y = x.pow(2)
raw = y.grad_fn._raw_saved_self
raw.register_hooks(lambda t: t, lambda t: t)
try:
    raw.register_hooks(lambda t: t, lambda t: t)
except RuntimeError as e:
    print("again:", e)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    z = x.pow(2)
try:
    z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
except RuntimeError as e:
    print("ctx:", e)
print(y.grad_fn._raw_saved_self is y.grad_fn._raw_saved_self)
# pack returns non-tensor
w = x.pow(2)
w.grad_fn._raw_saved_self.register_hooks(lambda t: "s", lambda s: x.detach() + 1)
print(w.grad_fn._saved_self)
w.sum().backward()
print(x.grad)
# hook on output saved tensor: result
r = x.exp()
r.grad_fn._raw_saved_result.register_hooks(lambda t: t.clone(), lambda t: t * 0)
r.sum().backward()
print(x.grad)
# unpack returning wrong
q = x.sin()
q.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: 5)
try:
    q.sum().backward()
except Exception as e:
    print(type(e).__name__, e)
x = torch.randn(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.detach()):
    y = x.pow(2)
    z = y.exp()
s = y.grad_fn._saved_self
print(s.requires_grad, s is x, s.grad_fn, s.is_leaf)
r = z.grad_fn._saved_result
print(r.requires_grad, r.grad_fn, r is z)
w = x * 2.0
print(w.grad_fn._saved_other, w.grad_fn._raw_saved_other)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    y2 = x.pow(2)
print(y2.grad_fn._saved_self is x)


# custom function raw saved
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * 2

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 2


o = F.apply(x)
print(
    type(o.grad_fn._raw_saved_tensors),
    len(o.grad_fn._raw_saved_tensors),
    [a for a in dir(o.grad_fn) if "raw" in a],
)
x = torch.randn(3, requires_grad=True)


def pack(t):
    print(
        "pack", t is x, t.requires_grad, t.grad_fn is not None, torch.is_grad_enabled(), t._version
    )
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    y = x.pow(2)
    z = y.exp()
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack, lambda t: t)
z = y.exp()
z.grad_fn._raw_saved_result.register_hooks(pack, lambda t: t)
print(z.grad_fn._saved_result is z)
