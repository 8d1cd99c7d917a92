import torch

x = torch.tensor([[1, 2], [3, 4]])
print(
    x.flip(0),
    torch.flip(x, [0, 1]),
    torch.fliplr(x),
    torch.roll(torch.arange(5), 2),
    x.roll(1, dims=1),
)
print(
    torch.rot90(x),
    x.cumsum(0),
    torch.tensor([1.0, 2.0, 3.0]).cumprod(dim=0),
    x.T,
    x.t().contiguous(),
)
print(torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing="ij"))
print(torch.narrow(torch.arange(10), 0, 2, 3), x.unfold(0, 1, 1).shape)
print(
    torch.squeeze(torch.zeros(1, 2, 1)).shape,
    torch.flatten(torch.zeros(2, 3, 4), 1).shape,
    torch.ravel(x),
)
print(
    torch.atleast_2d(torch.tensor(1.0)),
    torch.atleast_1d(torch.tensor(2)),
    torch.swapaxes(torch.zeros(2, 3), 0, 1).shape,
)
print(x.numpy().tolist(), x.abs(), x.neg(), -x, +x, abs(-x), x**2, 2**x, x.pow(0.5))
