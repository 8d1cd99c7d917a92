import torch
from torch import nn
from torch.optim.lr_scheduler import ReduceLROnPlateau

p = nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([p], lr=0.1)
sched = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1)
for epoch, val_loss in enumerate([1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8]):
    opt.step()
    sched.step(val_loss)
    print(epoch, opt.param_groups[0]["lr"], sched.num_bad_epochs, sched.best)
print(sched.get_last_lr())
s2 = ReduceLROnPlateau(torch.optim.SGD([p], lr=1.0), mode="max", factor=0.1, patience=0, threshold=0.1, min_lr=0.01)
for v in [1.0, 1.05, 1.2, 1.2, 1.2, 1.2]:
    s2.step(v)
    print(s2.optimizer.param_groups[0]["lr"])
