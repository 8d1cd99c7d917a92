import torch
import torch.nn as nn

torch.manual_seed(0)
a = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
b = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 2))
sd = a.state_dict()
print(list(sd.keys()), sd["0.bias"])
try:
    b.load_state_dict(sd)
except RuntimeError as e:
    print(e)
sd2 = dict(sd)
sd2.pop("2.bias")
sd2["extra"] = torch.zeros(1)
print(a.load_state_dict(sd2, strict=False))
try:
    a.load_state_dict(sd2)
except RuntimeError as e:
    print(e)
opt = torch.optim.Adam(a.parameters(), lr=0.1)
a(torch.ones(1, 2)).sum().backward()
opt.step()
st = opt.state_dict()
print(st["param_groups"], list(st["state"].keys()), st["state"][0]["step"], st["state"][0]["exp_avg"])
