import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
print(y.grad)
z = x + 1
print(z.grad)
print(z.grad)
w = torch.ones(2)
print(w.grad)
