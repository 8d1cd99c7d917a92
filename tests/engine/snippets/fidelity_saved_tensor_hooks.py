import torch


def pack(t):
    print("pack", t.shape)
    return t.clone()


def unpack(t):
    print("unpack", t.shape)
    return t


x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = x * x
    z = y.exp()
z.sum().backward()
print(x.grad)
a = torch.ones(3, requires_grad=True)
b = a.sin()
print(b.grad_fn._saved_self is a, b.grad_fn._saved_self.equal(a))
c = a.exp()
print(c.grad_fn._saved_result.equal(c), c.grad_fn._saved_result is c)
d = a.pow(2)
print(d.grad_fn._saved_self, d.grad_fn._saved_exponent)
d.sum().backward()
try:
    d.grad_fn._saved_self
except RuntimeError as e:
    print(e)
print(torch.autograd.graph.Node, isinstance(d.grad_fn, torch.autograd.graph.Node))
