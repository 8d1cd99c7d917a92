import torch

x = torch.arange(12.0).reshape(3, 4).requires_grad_()
a = x[1]
b = x[:, 2]
c = x[[0, 2], [1, 3]]
d = x[x > 5]
e = x[..., -1]
f = x[0:2, ::2]
g = x[torch.tensor([2, 0, 2])]
print(a, b, c, d, e, f, g, sep="\n")
for t in (a, b, c, d, e, f, g):
    print(t.grad_fn.name(), t.shape)
(a.sum() + b.sum() * 2 + c.sum() * 3 + d.sum() + e.sum() + f.sum() + g.sum()).backward()
print(x.grad)
m = torch.tensor([[True, False, True, False]] * 3)
print(x[m])
print(x[None, 1:, None].shape)
print(x[1, 2], x[1][2].item())
