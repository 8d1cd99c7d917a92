import torch

x = torch.tensor([3.0, 1.0, 2.0, 5.0, 4.0], requires_grad=True)
v, i = torch.sort(x, descending=True)
print(v, i, v.grad_fn.name())
(v * torch.arange(5.0)).sum().backward()
print(x.grad)
x.grad = None
res = torch.topk(x, 2)
print(res, res.values.grad_fn.name())
res.values.sum().backward()
print(x.grad)
x.grad = None
print(torch.topk(x, 2, largest=False, sorted=True))
m = x.max()
m.backward()
print(x.grad)
x.grad = None
u = torch.unique(torch.tensor([1, 3, 2, 3, 1]), sorted=True, return_inverse=True, return_counts=True)
print(u)
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 1]]), dim=0))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1]), return_counts=True))
try:
    torch.unique(x)
    print("ok", torch.unique(x).requires_grad)
except Exception as e:
    print(type(e).__name__, e)
am = torch.argsort(torch.tensor([[2, 1], [0, 3]]), dim=1, descending=True)
print(am)
print(torch.msort(torch.tensor([[3, 1], [1, 2]])))
s = torch.sort(torch.tensor([2, 1, 2, 1]), stable=True)
print(s)
try:
    torch.topk(x, 10)
except Exception as e:
    print(type(e).__name__, e)
med = torch.median(x)
med.backward()
print(med, x.grad)

x = torch.tensor([1.0, 2.0, 2.0, 1.0], requires_grad=True)
u, i, c = torch.unique(x, return_inverse=True, return_counts=True)
print(u, i, c, i.requires_grad, u.grad_fn.next_functions)
print(torch.unique(x, sorted=False), x.unique(dim=0), torch.unique_consecutive(x))
for f in [lambda: torch.unique(x), lambda: torch.unique_consecutive(x), lambda: torch.unique(x, dim=0)]:
    try:
        f().sum().backward()
    except Exception as e:
        print(type(e).__name__, e)
print(torch.unique(x.detach()).requires_grad, torch.unique(torch.tensor([3, 1, 3])))
with torch.no_grad():
    print(torch.unique(x))
