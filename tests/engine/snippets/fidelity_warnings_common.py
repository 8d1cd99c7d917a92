import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor(x)
print(y)
z = x * 2
print(z.grad)
print(x.new_tensor(x))
a = torch.ones(2, 3)
print(a.T.shape)
b = torch.ones(3)
print(torch.nn.functional.softmax(torch.ones(2, 2)).shape)
print(torch.nn.functional.mse_loss(torch.ones(2, 1), torch.ones(2)).item())
