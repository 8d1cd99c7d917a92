import torch

x = torch.tensor([3, 1, 2])
print(x == 1, x != 1, x > 1, x >= 2, x < 3, x <= 1, x.eq(torch.tensor([3, 0, 2])))
print(torch.eq(x, 2), torch.gt(x, 1), torch.greater(x, 1), torch.less_equal(x, 2))
print(torch.equal(x, torch.tensor([3, 1, 2])), torch.equal(x, torch.tensor([3.0, 1.0, 2.0])))
print(torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9])))
print(torch.allclose(torch.tensor([1.0]), torch.tensor([1.1]), atol=0.2))
print(
    torch.isclose(
        torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True
    )
)
print(torch.isclose(torch.tensor([1.0, 2.0]), torch.tensor([1.00001, 2.1])))
print(
    torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])),
    torch.minimum(torch.tensor([1.0, 5.0]), torch.tensor([3.0, 2.0])),
)
print(
    torch.max(torch.tensor([1, 5]), torch.tensor([3, 2])),
    torch.fmax(torch.tensor([1.0, float("nan")]), torch.tensor([float("nan"), 2.0])),
)
print(
    x.isfinite(),
    torch.isinf(torch.tensor([1.0, float("-inf")])),
    torch.isin(x, torch.tensor([1, 2])),
)
