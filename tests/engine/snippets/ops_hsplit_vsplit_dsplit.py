# hsplit/vsplit/dsplit: tensor_split along dim 1/0/2, but a number of sections must divide.
import torch

x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
parts = torch.dsplit(x, 2)
print([p.shape for p in parts], parts[0].grad_fn)
print(x.dsplit([1, 3])[2].shape, x.hsplit([1])[1].shape, x.vsplit(2)[1].shape)
print(torch.hsplit(torch.arange(6), 3))
sum(p.sum() * i for i, p in enumerate(x.hsplit(3))).backward()
print(x.grad[0])
for f, t, s in [
    (torch.dsplit, torch.ones(2, 2), 2),
    (torch.hsplit, torch.tensor(1.0), 2),
    (torch.vsplit, torch.ones(3), 1),
    (torch.hsplit, torch.ones(3), 2),
    (torch.hsplit, torch.ones(3, 5), 2),
    (torch.vsplit, torch.ones(3, 5), 2),
    (torch.hsplit, torch.ones(4, 4), 0),
    (torch.hsplit, torch.ones(4, 4), -2),
    (torch.dsplit, torch.ones(2, 2, 3), 2),
    (torch.tensor_split, torch.ones(4), 0),
]:
    try:
        print([tuple(p.shape) for p in f(t, s)])
    except RuntimeError as e:
        print(f.__name__, e)
print(torch.ones(3, 5).vsplit([1, 1, 9]))
torch.ones(4, 6).hsplit(4)
