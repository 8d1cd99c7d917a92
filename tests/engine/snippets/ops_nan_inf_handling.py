import torch

x = torch.tensor([1.0, float("nan"), 3.0])
print(x.sum(), x.nansum(), x.nanmean(), x.max(), torch.nan_to_num(x), x.isnan().any())
print(torch.tensor([0.0]) / 0, torch.tensor([1.0]).log() - torch.tensor([0.0]).log())
print(torch.tensor([float("inf")]) - torch.tensor([float("inf")]), torch.exp(torch.tensor([100.0])))
print(torch.tensor([-1.0]).sqrt(), torch.tensor([0.0]).log(), torch.tensor([1e-45]) > 0)
w = torch.tensor([0.0, 1.0], requires_grad=True)
y = w.sqrt().sum()
y.backward()
print(w.grad)
v = torch.tensor([0.0, 4.0], requires_grad=True)
(v.abs() + v.relu() + v.clamp(0, 1)).sum().backward()
print(v.grad)
