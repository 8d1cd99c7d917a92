import torch

a = torch.tensor([1.0, 2.0, -1.0], requires_grad=True)
b = torch.tensor([0.0, 4.0, 1.0])
d = torch.dist(a, b)
print(d, d.grad_fn.name())
d.backward()
print(a.grad)
print(torch.dist(a, b, 1), torch.dist(a, b, 0), torch.dist(a, b, float("inf")), a.dist(b, 3))
m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
torch.dist(m, torch.tensor([1.0, 1.0]), 3).backward()
print(m.grad)

A = torch.arange(6.0).reshape(3, 2).sin()
B = torch.arange(3.0).reshape(3, 1)
for drv in ["gels", "gelsy", "gelsd", "gelss"]:
    r = torch.linalg.lstsq(A, B, driver=drv)
    print(drv, r.residuals, r.rank, r.singular_values)
A5 = torch.arange(30.0).reshape(5, 3, 2).sin()
B5 = torch.arange(45.0).reshape(5, 3, 3).cos()
r = torch.linalg.lstsq(A5, B5)
print(r.solution[0], r.rank)
