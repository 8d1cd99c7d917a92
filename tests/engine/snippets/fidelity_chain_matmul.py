import torch
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(4, 5)
c = torch.randn(5, 6)
d = torch.randn(6, 7)
r = torch.chain_matmul(a, b, c, d)
print(r.shape, r.grad_fn, r.grad_fn.next_functions)
print(torch.chain_matmul(a, b).grad_fn)
print(torch.chain_matmul(a, b, c).grad_fn)
x = torch.chain_matmul(a)
print(x.grad_fn, x is a)
for args in [(), (torch.randn(3),), (torch.randn(3, 4), torch.randn(4)), (torch.randn(3, 4), torch.randn(5, 6))]:
    try:
        torch.chain_matmul(*args)
    except Exception as e:
        print(type(e).__name__, e)
o = torch.empty(3, 7)
print(torch.chain_matmul(a.detach(), b, c, d, out=o) is o)
import torch
for args in [[torch.randn(3, 4), torch.randn(5, 6)], [torch.randn(3, 4), torch.randn(4, 5), torch.randn(6, 2)],
             [torch.randn(3), torch.randn(4)], [torch.randn(2, 3, 4), torch.randn(4, 5)], [torch.randn(3, 4), torch.randn(4), torch.randn(4, 5)],
             [torch.randn(3, 4), torch.randn(4, 5, 1)], [torch.randn(3, 4)], [torch.randn(3, 4), torch.randn(4, 5, dtype=torch.float64)],
             [torch.randn(4), torch.randn(4)], [torch.randn(3, 4), torch.randn(4, 5), torch.randn(5, 2), torch.randn(3)]]:
    try:
        r = torch.linalg.multi_dot(args)
        print(r.shape)
    except Exception as e:
        print(type(e).__name__, e)
