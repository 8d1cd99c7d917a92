import torch
x = torch.randn(3, 4)
torch.manual_seed(0)
a = torch.randn(3, 4, requires_grad=True)
b = torch.randn(3, 4)
for f in ["eq","ne","lt","le","gt","ge","isnan","isinf","logical_and","logical_or","logical_xor","bitwise_and"]:
    try:
        out = torch.empty(3, 4, dtype=torch.bool)
        fn = getattr(torch, f)
        if f in ("isnan","isinf"):
            r = fn(a, out=out) if False else fn(a)
            print(f, r.dtype)
        elif f == "bitwise_and":
            o = torch.empty(3,4,dtype=torch.int64)
            r = fn(torch.ones(3,4,dtype=torch.int64), torch.ones(3,4,dtype=torch.int64), out=o)
            print(f, r is o, r.sum())
        else:
            r = fn(a, b, out=out)
            print(f, r is out, r.sum())
    except Exception as e:
        print(f, type(e).__name__, e)
o = torch.empty(3, dtype=torch.int64)
v = torch.empty(3)
r = torch.topk(torch.tensor([3.,1.,2.,5.]), 3, out=(v, o))
print(r, r.values is v)
r = torch.sort(torch.tensor([3.,1.,2.]), out=(torch.empty(3), torch.empty(3, dtype=torch.long)))
print(r)
print(torch.argsort(torch.tensor([3.,1.,2.])))
print(torch.all(torch.tensor([True, False]), out=torch.empty((), dtype=torch.bool)))
print(torch.any(torch.tensor([[True, False]]), dim=1, out=torch.empty(1, dtype=torch.bool)))
print(torch.nan_to_num(torch.tensor([float('nan'), float('inf'), 1.0]), out=torch.empty(3)))
print(torch.floor_divide(torch.tensor([5., 7.]), 2, out=torch.empty(2)))
m = torch.tensor([[2., 1.], [1., 3.]])
print(torch.det(m), torch.inverse(m, out=torch.empty(2, 2)))
print(torch.linalg.det(m, out=torch.empty(())))
print(torch.cummax(torch.tensor([1., 3., 2.]), 0, out=(torch.empty(3), torch.empty(3, dtype=torch.long))))
print(torch.kthvalue(torch.tensor([1., 3., 2.]), 2, out=(torch.empty(()), torch.empty((), dtype=torch.long))))
print(torch.mode(torch.tensor([1., 3., 3.]), out=(torch.empty(()), torch.empty((), dtype=torch.long))))
print(torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.0001])))
print(torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), torch.tensor([3., 4.]), out=torch.empty(2)))
A = torch.tensor([[4., 1.], [1., 3.]])
print(torch.linalg.inv(A, out=torch.empty(2, 2)))
print(torch.linalg.eigh(A, out=(torch.empty(2), torch.empty(2, 2))))
print(torch.linalg.qr(A, out=(torch.empty(2, 2), torch.empty(2, 2))))
print(torch.linalg.vector_norm(A, out=torch.empty(())))
print(torch.linalg.solve(A, torch.ones(2), out=torch.empty(2)))
x = torch.ones(2, requires_grad=True)
try:
    torch.linalg.vector_norm(x, out=torch.empty(()))
except RuntimeError as e:
    print(e)
try:
    torch.eq(x, x, out=torch.empty(2, dtype=torch.bool)); print("ok eq")
except RuntimeError as e:
    print(e)
try:
    torch.topk(x, 1, out=(torch.empty(1), torch.empty(1, dtype=torch.long)))
except RuntimeError as e:
    print(e)
print(torch.svd(A, out=(torch.empty(2,2), torch.empty(2), torch.empty(2,2))))
print(torch.nonzero(torch.tensor([1, 0, 2]), out=torch.empty(0, dtype=torch.long)))
print(torch.logical_not(torch.tensor([True, False]), out=torch.empty(2)))
print(torch.eq(torch.tensor([1., 2.]), torch.tensor([1., 3.]), out=torch.empty(2)))
s = torch.Size([2, 3])
try:
    s.foo
except AttributeError as e:
    print(e)
