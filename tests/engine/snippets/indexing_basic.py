import torch

x = torch.arange(12).reshape(3, 4)
print(x[1], x[:, 1], x[1, 2], x[-1, -1], x[1][2])
print(x[[0, 2]], x[[0, 2], [1, 3]], x[x > 5])
print(x[..., 1], x[None].shape, x[:, None].shape, x[1:, ::2])
print(x[torch.tensor([True, False, True])], x[torch.tensor([0, 0, 1])])
print(x.index_select(1, torch.tensor([0, 3])), torch.gather(x, 1, torch.tensor([[0], [1], [2]])))
print(x.masked_select(x > 5), x.take(torch.tensor([0, 5])), x.flatten()[::3])
x[0] = 100
x[:, 0] = torch.tensor([7, 8, 9])
x[x > 50] = 0
print(x)
try:
    x[5]
except IndexError as e:
    print("IndexError:", e)
try:
    x[:, 4]
except IndexError as e:
    print("IndexError:", e)
try:
    x[torch.tensor([3])]
except IndexError as e:
    print("IndexError:", e)
