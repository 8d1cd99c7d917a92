import torch

y = torch.tensor([1.0, 3.0, 2.0, 5.0], requires_grad=True)
x = torch.tensor([0.0, 1.0, 3.0, 4.0])
for r in (torch.trapezoid(y), torch.trapezoid(y, x), torch.trapezoid(y, dx=0.5)):
    print(r, r.grad_fn.name())
c = torch.cumulative_trapezoid(y)
print(c, c.grad_fn.name())
print(torch.cumulative_trapezoid(y, x), torch.cumulative_trapezoid(y, dx=2.0))
torch.trapezoid(y, x).backward()
print(y.grad)
M = torch.arange(6.0).reshape(2, 3)
print(torch.trapezoid(M), torch.trapezoid(M, dim=0), torch.trapz(M, dx=2.0) if hasattr(torch, "trapz") else "")

a = torch.tensor([[0.0, 1.0], [2.0, 2.0], [1.0, -1.0]], requires_grad=True)
b = torch.tensor([[1.0, 1.0], [0.0, 3.0]], requires_grad=True)
d = torch.cdist(a, b)
print(d, d.grad_fn.name())
d.sum().backward()
print(a.grad, b.grad)
print(torch.cdist(a, b, p=1), torch.cdist(a, b, p=float("inf")), torch.cdist(a, b, p=3))
print(torch.cdist(a.detach().unsqueeze(0), b.detach().unsqueeze(0)).shape)
try:
    torch.cdist(a, b[:, :1])
except RuntimeError as e:
    print("RuntimeError:", e)
