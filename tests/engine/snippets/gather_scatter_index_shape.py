import torch

# ATen checks an index's shape before reading: same number of dims as the input (a scalar counts
# as one dim), no larger than the input off `dim`, no larger than src anywhere; an empty index
# is never checked
x = torch.arange(6.0).reshape(2, 3).requires_grad_()
i = torch.tensor
attempts = {
    "gather, 1-d index": lambda: torch.gather(x, 1, i([0, 1])),
    "gather, 3-d index": lambda: x.gather(0, i([[[0]]])),
    "gather, wide index": lambda: torch.gather(x, 0, i([[0, 1, 0, 1]])),
    "gather, tall index": lambda: torch.gather(x, 1, i([[0], [1], [0]])),
    "gather, out of bounds": lambda: torch.gather(x, 1, i([[0, 5]])),
    "scatter, 1-d index": lambda: torch.zeros(2, 3).scatter(1, i([0, 1]), torch.ones(2, 3)),
    "scatter, value": lambda: torch.zeros(2, 3).scatter(0, i([[0, 1, 0, 1]]), 2.0),
    "scatter, small src": lambda: torch.zeros(2, 3).scatter(1, i([[0, 1, 2]]), torch.ones(1, 2)),
    "scatter, 1-d src": lambda: torch.zeros(2, 3).scatter(1, i([[0, 1]]), torch.ones(3)),
    "scatter_add_, tall": lambda: torch.zeros(2, 3).scatter_add_(1, i([[0], [1], [1]]), torch.ones(3, 3)),
    "scatter_reduce, wide": lambda: torch.zeros(2, 3).scatter_reduce(0, i([[0, 1, 0, 1]]), torch.ones(2, 4), "sum"),
    "take_along_dim, 1-d": lambda: torch.take_along_dim(x, i([0, 1]), 1),
    "take_along_dim, int32": lambda: torch.take_along_dim(x, i([[0, 1]], dtype=torch.int32), 1),
    "take_along_dim, no broadcast": lambda: torch.take_along_dim(x, i([[0, 1], [1, 0], [0, 0]]), 1),
}
for name, attempt in attempts.items():
    try:
        print(name, attempt())
    except (RuntimeError, IndexError) as err:
        print(name, type(err).__name__, err)

g = torch.gather(x, 1, i([[2, 0, 0, 1]]))  # longer than the input along `dim` is fine
g.sum().backward()
print(g, g.grad_fn, x.grad)
s = torch.tensor(3.0, requires_grad=True)
g = torch.gather(s, 0, i([0, 0]))
g.sum().backward()
print(g, s.grad, torch.gather(torch.tensor([3.0, 4.0]), 0, i(1)))
e = torch.gather(x, 1, torch.zeros(0, dtype=torch.long))
print(e, e.grad_fn.name())
print(torch.tensor(1.0).scatter(0, i([0, 0]), torch.tensor([5.0, 6.0])))
print(torch.tensor(1.0).scatter_add(0, i([0, 0]), torch.tensor([5.0, 6.0])))
print(torch.zeros(3).scatter(0, i(1), torch.tensor(5.0)))
print(torch.zeros(2, 3).scatter_add(1, torch.zeros(0, dtype=torch.long), torch.ones(2, 3)))
