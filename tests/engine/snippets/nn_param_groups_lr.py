import torch
from torch import nn

base = nn.Linear(2, 2)
head = nn.Linear(2, 1)
for p in list(base.parameters()) + list(head.parameters()):
    nn.init.constant_(p, 1.0)
opt = torch.optim.SGD(
    [{"params": base.parameters()}, {"params": head.parameters(), "lr": 1e-3}],
    lr=1e-2,
    momentum=0.9,
)
print(opt)
for g in opt.param_groups:
    print(g["lr"], g["momentum"], len(g["params"]))
x = torch.tensor([[1.0, 2.0]])
for step in range(2):
    opt.zero_grad()
    loss = head(base(x)).pow(2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.4f}", base.weight.data, head.bias.data)
for g in opt.param_groups:
    g["lr"] *= 0.5
print([g["lr"] for g in opt.param_groups])
sd = opt.state_dict()
print(sd["param_groups"])
print(sorted(sd["state"].keys()))
print(sd["state"][0])
opt.add_param_group({"params": [nn.Parameter(torch.zeros(1))], "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[2]["momentum"])
