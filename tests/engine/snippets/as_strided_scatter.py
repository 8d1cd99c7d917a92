# as_strided_scatter: values, the input's layout kept, AsStridedScatterBackward0's saved values and PyTorch's gradients, errors
import torch

a = torch.arange(4).reshape(2, 2) + 1
b = torch.zeros(3, 3)
print(torch.as_strided_scatter(b, a, (2, 2), (1, 2)))
x = torch.arange(9.0, requires_grad=True)
src = torch.tensor([10.0, 20.0, 30.0], requires_grad=True)
r = torch.as_strided_scatter(x.view(3, 3), src, (3,), (4,))
print(r)
node = r.grad_fn
print(type(node).__name__, node.name(), node._saved_size, node._saved_stride)
print(node._saved_storage_offset)
r.backward(torch.arange(9.0).view(3, 3) + 1)
print(x.grad, src.grad)
s2 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.zeros(4, requires_grad=True)
r = z.as_strided_scatter(s2, (2, 2), (1, 1))
print(r)
r.backward(torch.tensor([1.0, 10.0, 100.0, 1000.0]))
print(z.grad, s2.grad)
base = torch.arange(10.0)
for off in (1, 2, 7):
    print(torch.as_strided_scatter(base[2:8], torch.tensor([100.0, 200.0]), (2,), (2,), off))
r = torch.as_strided_scatter(torch.zeros(3, 2).t(), torch.ones(2), (2,), (1,))
print(r, r.stride(), r.is_contiguous())
r = torch.as_strided_scatter(base[2:8], torch.ones(2), (2,), (1,))
print(r, r.stride(), r.storage_offset())
r = torch.as_strided_scatter(base.expand(2, 10), torch.ones(2), (2,), (1,))
print(r, r.stride())
print(torch.as_strided_scatter(torch.zeros(4, dtype=torch.int64), torch.ones(2), (2,), (1,)))
s = torch.ones(2, dtype=torch.float64, requires_grad=True)
r = torch.as_strided_scatter(torch.zeros(4, dtype=torch.float64), s, (2,), (2,), 1)
(gs,) = torch.autograd.grad(r, s, torch.ones(4, dtype=torch.float64), create_graph=True)
print(gs)
bad = [
    ((torch.zeros(4), torch.ones(2), (2,), (1,), 20), {}),
    ((torch.zeros(4), torch.ones(2), (3,), (1,)), {}),
    ((torch.zeros(4), torch.ones(2), (2,), (1, 1)), {}),
    ((torch.zeros(4), torch.ones(2), (2,), (-1,)), {}),
    ((torch.zeros(3, 2, requires_grad=True).t(), torch.ones(2), (2,), (1,)), {}),
    ((torch.zeros(4), torch.ones(2), 2, (1,)), {}),
    ((torch.zeros(4), torch.ones(2), (2.0,), (1,)), {}),
    ((torch.zeros(4),), {}),
    ((torch.zeros(4), torch.ones(2), (2,), (1,)), {"out": torch.empty(0)}),
    ((torch.zeros(4, dtype=torch.long), torch.ones(2, requires_grad=True), (2,), (1,)), {}),
]
for args, kw in bad:
    try:
        torch.as_strided_scatter(*args, **kw)
    except (RuntimeError, TypeError) as e:
        print(type(e).__name__, e)
