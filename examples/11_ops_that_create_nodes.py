# title: Operations that create graph nodes
# Every one of these records a node in the backward graph when its input requires grad. The
# note's F.linear line uses a weight and bias defined elsewhere: small ones are defined here.
import torch
import torch.nn.functional as F

weight = torch.tensor([[0.5]], requires_grad=True)
bias = torch.tensor([0.1], requires_grad=True)

# arithmetic
x = torch.tensor([1.0], requires_grad=True)
y = x + 2      # creates an addition node
z = y * 3      # creates a multiplication node
print(y.grad_fn.name(), z.grad_fn.name())

# neural-network operations
x = torch.tensor([1.0], requires_grad=True)
y = F.relu(x)  # creates a ReLU node
z = F.linear(y, weight, bias)  # creates a linear-layer node
print(y.grad_fn.name(), z.grad_fn.name())

# tensor operations
x = torch.tensor([1.0], requires_grad=True)
y = x.view(-1)  # creates a view node
z = y.sum()     # creates a sum node
print(y.grad_fn.name(), z.grad_fn.name())

# conditional operations
x = torch.tensor([1.0], requires_grad=True)
y = torch.where(x > 0, x, torch.zeros_like(x))  # creates a node
print(y.grad_fn.name())

# indexing
x = torch.tensor([1.0], requires_grad=True)
y = x[0]  # creates a node
print(y.grad_fn.name())
y.backward()
print(x.grad)
