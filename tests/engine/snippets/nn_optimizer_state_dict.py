import torch
from torch import nn

w = nn.Parameter(torch.tensor([1.0, -2.0]))
b = nn.Parameter(torch.tensor(0.5))
opt = torch.optim.Adam([w, b], lr=0.1, betas=(0.9, 0.99))
print(opt.state_dict())
for _ in range(2):
    opt.zero_grad()
    loss = (w ** 2).sum() + b * 3
    loss.backward()
    opt.step()
print(w, b)
sd = opt.state_dict()
print(sd["state"][0]["step"], sd["state"][0]["exp_avg"], sd["state"][1]["exp_avg_sq"])
print(list(sd["state"][0].keys()))
print(sd["param_groups"])
print(opt.state[w]["exp_avg"])
print(len(opt.state))
opt2 = torch.optim.SGD([w], lr=0.1, momentum=0.5, weight_decay=0.01, nesterov=True)
(w * w).sum().backward()
opt2.step()
print(opt2.state_dict())
print(opt2)
try:
    torch.optim.SGD([w], lr=-1)
except ValueError as e:
    print(e)
try:
    torch.optim.SGD([w, w], lr=0.1)
except Exception as e:
    print(type(e).__name__)
try:
    torch.optim.Adam([], lr=0.1)
except ValueError as e:
    print(e)
