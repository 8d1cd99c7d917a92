import torch

x = torch.tensor([-2.0, -0.5, 0.0, 0.5, 2.0], requires_grad=True)
y = torch.relu(x) * torch.sigmoid(x) + torch.tanh(x) ** 2
print(y)
y.sum().backward()
print(x.grad)
print(y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions])
