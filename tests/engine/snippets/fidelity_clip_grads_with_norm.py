import torch
import torch.nn as nn

torch.manual_seed(0)
m = nn.Linear(4, 3)
m(torch.randn(2, 4)).pow(2).sum().backward()
before = [p.grad.clone() for p in m.parameters()]
total = nn.utils.clip_grad_norm_(m.parameters(), max_norm=0.5)
print(total)
print(torch.linalg.vector_norm(torch.cat([p.grad.flatten() for p in m.parameters()])))
for p, b in zip(m.parameters(), before):
    p.grad.copy_(b)
print(nn.utils.clip_grad_norm_(m.parameters(), max_norm=1.0, norm_type="inf"))
for p, b in zip(m.parameters(), before):
    p.grad.copy_(b)
print(nn.utils.clip_grad_norm_(m.parameters(), 100.0, norm_type=1))
print(m.bias.grad)
nn.utils.clip_grad_value_(m.parameters(), clip_value=0.1)
print(m.bias.grad, m.weight.grad.abs().max())
print(nn.utils.clip_grad_norm_([], 1.0))
p = torch.zeros(2, requires_grad=True)
print(nn.utils.clip_grad_norm_([p], 1.0))
p.grad = torch.tensor([float("nan"), 1.0])
try:
    nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
except Exception as e:
    print(type(e).__name__, e)
print(nn.utils.clip_grad_norm_(p, 1.0))
q = torch.ones(3, requires_grad=True)
q.grad = torch.tensor([3.0, 4.0, 0.0])
print(nn.utils.get_total_norm([q.grad]))
nn.utils.clip_grads_with_norm_([q], 1.0, torch.tensor(5.0))
print(q.grad)
v = nn.utils.parameters_to_vector(m.parameters())
print(v.shape)
nn.utils.vector_to_parameters(torch.arange(15.0), m.parameters())
print(m.weight, m.bias)
