import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor(x)
print(y, y.requires_grad)
z = torch.as_tensor([1, 2])
print(z)
print(torch.tensor([[1.0], [2.0]]).T)
