import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x, x * 2, (x * 2).sum(), x.mean())
print(x.detach(), x.data, x[0], x.view(2, 1))
print(torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True) * 2)
print(x.to(torch.float64), x.double().grad_fn, x.float() is x)
with torch.no_grad():
    print(x * 2)
print(torch.nn.Parameter(torch.ones(2)))
print(repr(x), str(x * 3))
print(f"{x.sum().item():.3f}", format(torch.tensor(2.5).item(), ".2f"))
