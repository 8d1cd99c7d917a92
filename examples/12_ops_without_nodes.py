# title: Operations that do not create graph nodes
# No node is recorded when no input requires grad, inside no_grad, for plain Python results,
# or for detach (which only makes a new tensor sharing the data).
import torch

# operations not involving gradients
x = torch.tensor([1.0])  # requires_grad defaults to False
y = x * 2  # no node
print(y.grad_fn)

with torch.no_grad():
    y = x * 2  # no node
print(y.grad_fn)

# plain Python operations
x = torch.tensor([1.0], requires_grad=True)
y = x.tolist()  # no node: this is a Python operation
print(y)

# operations that do not change the data
x = torch.tensor([1.0], requires_grad=True)
y = x.detach()  # no node, just a new tensor sharing the data
print(y.grad_fn, y.requires_grad)
