import torch

t = torch.arange(6.0).view(2, 3)
for idx in [torch.tensor([[0, 1]], dtype=torch.int32), torch.tensor([[0.0, 1.0]])]:
    for name, fn in [("gather", lambda i: torch.gather(t, 1, i)), ("scatter", lambda i: t.scatter(1, i, 1.0)),
                     ("scatter_add", lambda i: t.scatter_add(1, i, torch.ones(1, 2))),
                     ("scatter_reduce", lambda i: t.scatter_reduce(1, i, torch.ones(1, 2), "sum")),
                     ("index_select", lambda i: t.index_select(1, i[0])), ("take", lambda i: t.take(i)),
                     ("index_add", lambda i: t.index_add(1, i[0], torch.ones(2, 2)))]:
        try:
            print(name, idx.dtype, fn(idx))
        except Exception as e:
            print(name, idx.dtype, type(e).__name__, e)
x = torch.arange(6.0).view(2, 3).requires_grad_()
y = torch.gather(x, 1, torch.tensor([[2, 2], [0, 1]], dtype=torch.int32))
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)
try:
    torch.zeros(3).index_put_((torch.tensor([5]),), torch.tensor(1.0))
except Exception as e:
    print(type(e).__name__, e)
try:
    torch.zeros(2, 3).index_put_((torch.tensor([0]), torch.tensor([-4])), torch.tensor(1.0))
except Exception as e:
    print(type(e).__name__, e)
