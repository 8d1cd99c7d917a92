# title: Saved tensors: exp saves its output
# Here y.grad_fn._saved_result is not the same Python object as y: to avoid a reference cycle
# PyTorch packs a tensor that is the output of its own grad_fn when saving it and unpacks it
# into a different tensor object (sharing the same storage) when it is read back. This is an
# implementation detail users should not rely on.
import torch

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

# backward reads the saved output: d(e^x)/dx = e^x
y.sum().backward()
print(torch.equal(x.grad, y.detach()))
