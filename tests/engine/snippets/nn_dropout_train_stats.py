import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
d = nn.Dropout(0.5)
x = torch.ones(1000)
y = d(x)
vals = sorted(set(y.tolist()))
print(vals)
print(y.grad_fn)
print(F.dropout(x, 0.5, training=False).equal(x))
d.eval()
print(d(x) is x, d(x).equal(x))
xr = torch.ones(10, requires_grad=True)
d.train()
out = d(xr)
print(out.grad_fn.name())
out.sum().backward()
print(sorted(set(xr.grad.tolist())))
print(((out == 0) == (xr.grad == 0)).all().item())
print(F.dropout(x, p=1.0).sum().item())
print(nn.Dropout2d(0.3), nn.Dropout(p=0.1, inplace=True))
