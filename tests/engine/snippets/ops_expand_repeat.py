import torch

x = torch.tensor([[1], [2]])
print(x.expand(2, 3), x.expand(-1, 4), x.repeat(1, 3), x.repeat(2, 2))
print(torch.tensor([1, 2]).repeat(3), torch.tensor([1, 2]).repeat(2, 2).shape)
print(x.expand_as(torch.zeros(2, 5)).shape, torch.tensor([1, 2]).repeat_interleave(2))
print(torch.tensor([[1, 2], [3, 4]]).repeat_interleave(torch.tensor([1, 2]), dim=0))
print(torch.tensor([1, 2]).tile((2,)), torch.tensor([[1, 2]]).tile(2, 1))
try:
    x.expand(3, 3)
except RuntimeError as e:
    print(e)
try:
    torch.ones(2, 3, 1).expand(3, 3, 4)
except RuntimeError as e:
    print(e)
w = torch.tensor([1.0, 2.0], requires_grad=True)
e = w.expand(3, 2)
r = w.repeat(3)
(e.sum() + r.sum()).backward()
print(e.grad_fn, r.grad_fn, w.grad)
