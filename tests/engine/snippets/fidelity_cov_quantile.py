import torch

x = torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.5]], requires_grad=True)
c = torch.cov(x)
print(c, c.grad_fn.name())
print(torch.cov(x, correction=0))
print(torch.cov(torch.tensor([1.0, 2.0, 4.0])))
r = torch.corrcoef(x)
print(r, r.grad_fn.name())
(c.sum() + r[0, 1]).backward()
print(x.grad)

a = torch.tensor([0.0, 1.0, 2.0, 3.0, 5.0], requires_grad=True)
q = torch.quantile(a, 0.6)
print(q, q.grad_fn.name(), q.grad_fn.next_functions[0][0].name())
q.backward()
print(a.grad)
print(torch.quantile(a, torch.tensor([0.25, 0.5, 0.75])))
m = torch.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]], requires_grad=True)
qd = torch.quantile(m, torch.tensor([0.1, 0.9]), dim=1, keepdim=True)
print(qd.shape, qd)
qd.sum().backward()
print(m.grad)
print(m.quantile(0.5, dim=0))
for mode in ["linear", "lower", "higher", "midpoint", "nearest"]:
    print(mode, torch.quantile(a, 0.4, interpolation=mode))
n = torch.tensor([1.0, float("nan"), 3.0, 2.0])
print(torch.quantile(n, 0.5), torch.nanquantile(n, 0.5))
print(torch.nanquantile(torch.tensor([[1.0, float("nan")], [2.0, 4.0]]), 0.5, dim=1))
try:
    torch.quantile(a, 1.5)
except RuntimeError as e:
    print(e)
try:
    torch.quantile(torch.tensor([1, 2]), 0.5)
except RuntimeError as e:
    print(e)
