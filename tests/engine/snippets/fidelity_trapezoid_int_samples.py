import torch
# torch.trapezoid's docstring examples
y = torch.tensor([1, 5, 10])
print(torch.trapezoid(y))
print(torch.trapezoid(y, dx=2))
x = torch.tensor([1, 3, 6])
print(torch.trapezoid(y, x))
print(torch.trapz(y, x), torch.trapezoid(torch.tensor([1, 5, 10], dtype=torch.int32)).dtype)
y = torch.arange(9).reshape(3, 3)
print(torch.trapezoid(y))
print(torch.trapezoid(y, dim=0))
x = torch.tensor([1, 3, 6])
print(torch.trapezoid(y, x))
y = torch.ones(3, 3)
x = torch.tensor([[1, 2, 3], [1, 3, 5], [1, 4, 7]])
print(torch.trapezoid(y, x))
try:
    torch.trapezoid(torch.tensor([True, False]))
except RuntimeError as e:
    print(e)
