import torch
import torch.nn as nn
import torch.nn.functional as F

print(F.batch_norm(torch.arange(6.0).view(3, 2), torch.zeros(2), torch.ones(2), training=True, momentum=0.5))
bn = nn.BatchNorm1d(2)
print(bn(torch.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 30.0]])))
bn2 = nn.BatchNorm2d(3)
torch.manual_seed(0)
x = torch.randn(2, 3, 2, 2) * 3 + 1
y = bn2(x)
print(y[0, 0], y[1, 2])
bn2.eval()
print(bn2(x)[1, 2], bn2.running_mean, bn2.running_var)
xb = torch.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 30.0]], requires_grad=True)
out = F.batch_norm(xb, None, None, torch.tensor([2.0, 0.5]), torch.tensor([0.0, 1.0]), training=True)
print(out, out.grad_fn._saved_result2)
(out * torch.tensor([[1.0, 2.0], [3.0, -4.0], [0.5, 6.0]])).sum().backward()
print(xb.grad)
