import torch
import torch.nn.functional as F

y = torch.tensor([0, 2, 1, 3])
print(F.one_hot(y))
print(F.one_hot(y, num_classes=5))
print(F.one_hot(torch.tensor([[0, 1], [2, 0]]), 3))
print(F.one_hot(y).dtype, F.one_hot(y).float())
x = torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])
print(F.softmax(x, dim=1))
print(F.softmax(x, dim=0))
print(F.log_softmax(x, dim=1))
print(torch.softmax(x, 1).sum(dim=1))
print(x.softmax(-1))
print(F.softmin(x, dim=1))
try:
    F.one_hot(torch.tensor([1.0, 2.0]))
except RuntimeError as e:
    print(e)
try:
    F.one_hot(torch.tensor([0, 3]), 2)
except RuntimeError as e:
    print(e)
print(F.one_hot(torch.tensor([], dtype=torch.long), 3))
