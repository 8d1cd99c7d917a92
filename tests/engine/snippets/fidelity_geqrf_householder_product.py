import torch
torch.manual_seed(0)
A = torch.randn(4, 3, dtype=torch.float64)
a, tau = torch.geqrf(A)
print(a, tau)
print(torch.geqrf(A.float()))
Q = torch.linalg.householder_product(a, tau)
print(Q)
print(torch.dist(Q, torch.linalg.qr(A).Q))
print(torch.orgqr(a, tau).shape, a.orgqr(tau).shape)
h = a.clone().requires_grad_()
t = tau.clone().requires_grad_()
Q = torch.linalg.householder_product(h, t)
print(Q.grad_fn)
(Q * torch.arange(12.).reshape(4, 3)).sum().backward()
print(h.grad, t.grad)
x = torch.randn(3, 3, requires_grad=True)
r = torch.geqrf(x)
print(r.a.grad_fn, r.tau.grad_fn)
print(torch.linalg.householder_product(torch.randn(2, 5, 3), torch.randn(2, 2)).shape)
try:
    r.a.sum().backward()
except RuntimeError as e:
    print(e)
for args in [(torch.randn(3, 4), torch.randn(2)), (torch.randn(4, 3), torch.randn(4)), (torch.randn(4), torch.randn(1))]:
    try:
        torch.linalg.householder_product(*args)
    except RuntimeError as e:
        print(e)
try:
    torch.geqrf(torch.randn(3))
except RuntimeError as e:
    print(e)
