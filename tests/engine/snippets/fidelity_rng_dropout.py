import torch
import torch.nn as nn

torch.manual_seed(0)
drop = nn.Dropout(p=0.5)
x = torch.ones(2, 6, requires_grad=True)
y = drop(x)
print(y)
y.sum().backward()
print(x.grad)
print(y.grad_fn)
drop.eval()
print(drop(x))
print(torch.nn.functional.dropout(torch.arange(6.0), p=0.2, training=True))
d2 = nn.Dropout2d(0.5)
print(d2(torch.ones(1, 4, 2, 2))[0, :, 0, 0])
