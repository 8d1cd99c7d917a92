import torch

x = torch.empty(5, 7, 3)
y = torch.empty(5, 7, 3)
print((x + y).size())
x = torch.empty((0,))
y = torch.empty(2, 2)
try:
    x + y
except RuntimeError as e:
    print(e)
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print((x + y).size())
x = torch.empty(5, 2, 4, 1)
y = torch.empty(3, 1, 1)
try:
    x + y
except RuntimeError as e:
    print(e)
x = torch.empty(1, 3, 1)
y = torch.empty(3, 1, 7)
print((x + y).size())
x = torch.empty(5, 3, 4, 1)
y = torch.empty(3, 1, 1)
print(x.add_(y).size())
x = torch.empty(1, 3, 1)
try:
    x.add_(torch.empty(3, 1, 7))
except RuntimeError as e:
    print(e)
print(torch.add(torch.ones(4, 1), torch.ones(4)).size())
