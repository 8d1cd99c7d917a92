import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.data, x.data.requires_grad)
x.data[0] = 5.0
print(x)
s = (x * 2).sum()
print(s.item(), type(s.item()).__name__)
print(x.tolist(), torch.tensor([[1, 2], [3, 4]]).tolist())
print(torch.tensor(3).item(), torch.tensor(True).item())
print(x.detach().numpy())
try:
    x.numpy()
except RuntimeError as err:
    print("RuntimeError", err)
try:
    x.item()
except RuntimeError as err:
    print("RuntimeError", err)
print(float(torch.tensor(2.5)), int(torch.tensor(3.7)), bool(torch.tensor(0.0)))
try:
    bool(torch.tensor([1.0, 2.0]))
except RuntimeError as err:
    print("RuntimeError", err)
x.data = torch.tensor([7.0, 8.0])
print(x)
