import torch
from torch import nn

m = nn.Linear(3, 2)
with torch.no_grad():
    m.weight.copy_(torch.arange(6.0).reshape(2, 3))
    m.bias.copy_(torch.tensor([1.0, -1.0]))
out = m(torch.tensor([[1.0, 2.0, 3.0]]))
out.pow(2).sum().backward()
print(m.weight.grad, m.bias.grad)
total = torch.nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0)
print(total)
print(m.weight.grad, m.bias.grad)
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0))
print(torch.nn.utils.clip_grad_norm_(m.parameters(), 10.0, norm_type=float("inf")))
torch.nn.utils.clip_grad_value_(m.parameters(), clip_value=0.1)
print(m.weight.grad)
print(nn.utils.clip_grad_norm_([], 1.0))
v = nn.utils.parameters_to_vector(m.parameters())
print(v)
nn.utils.vector_to_parameters(v * 0, m.parameters())
print(m.weight)
