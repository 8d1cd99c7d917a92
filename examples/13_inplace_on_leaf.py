# title: In-place operations replace a tensor's node
# The note says an in-place op creates a node and modifies the original tensor. On a leaf
# that requires grad PyTorch refuses it; on an intermediate tensor the in-place op becomes
# the tensor's new grad_fn.
import torch

# in-place operation
x = torch.tensor([1.0], requires_grad=True)
try:
    x.add_(2)  # creates a node, but modifies the original tensor
except RuntimeError as e:
    print("RuntimeError:", e)

y = x * 1
print(y.grad_fn)
y.add_(2)
print(y, y.grad_fn, y._version)
y.backward()
print(x.grad)
