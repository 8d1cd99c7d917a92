import torch
import torch.nn as nn
from torch.nn.utils import remove_weight_norm, weight_norm

m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.tensor([[1.0, 2.0, 2.0], [0.0, 3.0, 4.0]]))
    m.bias.zero_()
m = weight_norm(m, name="weight")
print([n for n, _ in m.named_parameters()])
print(m.weight_g, m.weight_v.shape)
print(m.weight, m.weight.grad_fn.name())
with torch.no_grad():
    m.weight_g.mul_(2)
y = m(torch.tensor([[1.0, 0.0, -1.0]]))
print(y)
y.sum().backward()
print(m.weight_g.grad, m.weight_v.grad)
try:
    weight_norm(m)
except RuntimeError as e:
    print("RuntimeError:", e)
remove_weight_norm(m)
print([n for n, _ in m.named_parameters()], m.weight)
try:
    remove_weight_norm(m)
except ValueError as e:
    print("ValueError:", str(e).splitlines()[0])
