import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
norm = nn.RMSNorm(3)
y = norm(x)
print(norm, y)
node = y.grad_fn
while node is not None:
    print(node.name())
    nxt = [f for f, _ in node.next_functions if f is not None and f.name() != "torch::autograd::AccumulateGrad"]
    node = nxt[0] if nxt else None
(y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(x.grad, norm.weight.grad)
print(F.rms_norm(x, (3,), eps=1e-6), nn.RMSNorm([2, 3], eps=1e-5, elementwise_affine=False)(x))
print(type(norm))
