import torch
x = torch.tensor([1., 4., 9., 16., 25.], requires_grad=True)
g = torch.gradient(x)
print(g, type(g))
print(torch.gradient(x, spacing=2.0), torch.gradient(x, edge_order=2))
t = torch.arange(12.).view(3, 4) ** 2
print(torch.gradient(t), torch.gradient(t, dim=1), torch.gradient(t, spacing=[torch.tensor([0., 1., 3.])], dim=0))
print(torch.gradient(t, spacing=[torch.tensor([0., 1., 3.])], dim=0, edge_order=2))
print(torch.gradient(t, spacing=(2.0, 3.0)))
print(torch.gradient(t, dim=(0, 1), spacing=[torch.tensor([0., 1., 3.]), torch.tensor([0., 0.5, 1., 2.])]))
try:
    torch.gradient(torch.ones(1))
except Exception as e:
    print(type(e).__name__, e)
g[0].sum().backward()
print(x.grad)
print(torch.gradient(torch.tensor([1, 4, 9, 16])))
