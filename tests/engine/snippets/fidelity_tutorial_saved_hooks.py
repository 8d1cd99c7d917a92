import torch

a = torch.randn(5, requires_grad=True) if False else torch.linspace(-1, 1, 5, requires_grad=True)
b = torch.ones(5, requires_grad=True)
c = torch.ones(5) * 3
d = a * b + c
print(d.grad_fn._saved_self.equal(a), d.grad_fn._saved_other.equal(b) if hasattr(d.grad_fn, "_saved_other") else None)
x = torch.randn(5, requires_grad=True) if False else torch.arange(5.0, requires_grad=True)
y = x.pow(2)
print(y.grad_fn._saved_self.equal(x))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result), y is y.grad_fn._saved_result)
x = torch.arange(4.0, requires_grad=True)
y = x.pow(2)
y.sum().backward()
try:
    y.grad_fn._saved_self
except RuntimeError as e:
    print(e)


def pack_hook(x):
    print("Packing", x)
    return x


def unpack_hook(x):
    print("Unpacking", x)
    return x


a = torch.ones(5, requires_grad=True)
b = torch.ones(5, requires_grad=True) * 2
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * b
y.sum().backward()
x = torch.randn(5, requires_grad=True) * 0 + 1
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 10, lambda t: t)
print(y.grad_fn._saved_self)


class SelfDeletingTempFile:
    def __init__(self):
        self.value = None


def pack_to_store(tensor):
    f = SelfDeletingTempFile()
    f.value = tensor.clone()
    return f


def unpack_from_store(f):
    return f.value


x = torch.ones(3, requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_to_store, unpack_from_store):
    y = x.pow(2)
print(y.grad_fn._saved_self)
y.sum().backward()
print(x.grad)
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    z = (x * x).sum()
z.backward()
print(x.grad)
