import torch
import torch.nn as nn

torch.manual_seed(5)
model = nn.Linear(3, 3)
x = torch.randn(2, 3) * 10
loss = model(x).pow(2).sum()
loss.backward()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(round(total.item(), 2))
print(model.weight.grad.round(decimals=3))
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.05)
print(model.bias.grad)
opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=0.01, momentum=0.9, nesterov=True)
opt.step()
print(model.weight)
print(opt.state_dict()["param_groups"])
vec = nn.utils.parameters_to_vector(model.parameters())
print(vec.shape, vec[:3])
