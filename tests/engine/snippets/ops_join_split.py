import torch

a, b = torch.ones(2, 3), torch.zeros(2, 3)
print(torch.cat([a, b]).shape, torch.cat((a, b), dim=1).shape, torch.cat([a, b], -1).shape)
print(torch.stack([a, b]).shape, torch.stack([a, b], dim=2).shape, torch.stack((a[0], b[0]), 1))
print(
    torch.hstack([torch.tensor([1, 2]), torch.tensor([3])]),
    torch.vstack([torch.tensor([1, 2]), torch.tensor([3, 4])]),
)
print(
    torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]),
    torch.dstack([torch.tensor([1]), torch.tensor([2])]).shape,
)
print(
    torch.chunk(torch.arange(7), 3),
    torch.split(torch.arange(7), 3),
    torch.split(torch.arange(7), [2, 5]),
)
print(torch.arange(10).view(2, 5).unbind(0), torch.arange(6).reshape(2, 3).unbind(1))
print(torch.tensor_split(torch.arange(7), 3), torch.arange(8).reshape(2, 4).chunk(2, dim=1))
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
p, q = x.split(2)
(p * 2 + q).sum().backward()
print(p.grad_fn, x.grad)
print(torch.cat([torch.tensor([]), torch.tensor([1.0, 2.0])]))
