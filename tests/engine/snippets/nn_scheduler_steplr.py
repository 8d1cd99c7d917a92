import torch
from torch import nn
from torch.optim.lr_scheduler import StepLR, ExponentialLR, MultiStepLR, LambdaLR, CosineAnnealingLR

p = nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([p], lr=0.1)
sched = StepLR(opt, step_size=2, gamma=0.5)
for epoch in range(6):
    opt.step()
    sched.step()
    print(epoch, sched.get_last_lr(), opt.param_groups[0]["lr"])
opt = torch.optim.SGD([p], lr=1.0)
s = ExponentialLR(opt, gamma=0.9)
for _ in range(3):
    opt.step()
    s.step()
print(s.get_last_lr(), s.last_epoch)
opt = torch.optim.SGD([p], lr=1.0)
s = MultiStepLR(opt, milestones=[1, 3], gamma=0.1)
lrs = []
for _ in range(5):
    opt.step()
    s.step()
    lrs.append(opt.param_groups[0]["lr"])
print(lrs)
opt = torch.optim.Adam([p], lr=0.01)
s = LambdaLR(opt, lr_lambda=lambda e: 1.0 / (e + 1))
for _ in range(3):
    opt.step()
    s.step()
print(s.get_last_lr())
opt = torch.optim.SGD([p], lr=1.0)
s = CosineAnnealingLR(opt, T_max=4)
out = []
for _ in range(5):
    opt.step()
    s.step()
    out.append(round(s.get_last_lr()[0], 6))
print(out)
print(s.state_dict())
