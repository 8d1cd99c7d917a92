import torch

print(
    torch.broadcast_shapes((2,), (3, 1)),
    torch.broadcast_tensors(torch.ones(2), torch.ones(3, 1))[0].shape,
)
try:
    torch.broadcast_shapes((2, 3), (4,))
except RuntimeError as e:
    print(e)
print(torch.finfo(torch.float32), torch.iinfo(torch.int32))
print(
    torch.finfo(torch.float32).eps,
    torch.finfo().max,
    torch.finfo(torch.float16).tiny,
    torch.iinfo(torch.int64).max,
)
print(torch.finfo(torch.float16), torch.finfo(torch.float64).min, torch.iinfo(torch.uint8))
print(
    torch.heaviside(torch.tensor([-1.5, 0, 2.0]), torch.tensor([0.5])),
    torch.is_nonzero(torch.tensor([0.0])),
)
a = torch.tensor([[0.3, -0.7, 2.0], [1.0, 4.0, -3.0]], requires_grad=True)
print(a.kthvalue(2, 1), torch.kthvalue(a, 1, 0, True).values)
print(torch.diff(a), torch.diff(a, dim=0), torch.diff(torch.tensor([1, 3, 6, 10]), n=2))
print(torch.diff(torch.tensor([1, 3]), prepend=torch.tensor([0]), append=torch.tensor([4, 5])))
print(torch.zeros(3, 3).fill_diagonal_(5), torch.zeros(5, 3).fill_diagonal_(1, wrap=True))
print(
    a.moveaxis(0, 1).shape,
    torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape,
    torch.mode(torch.tensor([5.0, 1, 5, 1, 2])),
)
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])))
print(torch.nan_to_num(torch.tensor([float("nan"), float("inf")]), nan=0.0, posinf=100.0))
