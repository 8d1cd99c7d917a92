import torch

torch.manual_seed(0)
x = torch.randn(30, 30, requires_grad=True)
y = x * 2
print(y)
print(torch.arange(2000.0))
print(torch.randn(3, 4, 5))
torch.set_printoptions(precision=2)
print(torch.randn(2, 3))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 0.001]))
torch.set_printoptions(profile="default")
print(torch.tensor([1e-10, 1e10]), torch.tensor([1e-3, 1e3]), torch.tensor([12345678.0]))
print(torch.tensor([[0.1, -0.2], [1e-4, 5.0]], dtype=torch.float64, requires_grad=True))
