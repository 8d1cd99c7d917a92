import torch
from torch.optim.lr_scheduler import ReduceLROnPlateau

w = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([w], lr=1.0)
sch = ReduceLROnPlateau(opt, patience=0, min_lr=0.3)
print(sorted(sch.state_dict()), sch.default_min_lr)
opt.add_param_group({"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.5})
for m in [1.0, 2.0, 3.0, 4.0]:
    sch.step(m)
    print(sch.get_last_lr(), sch.min_lrs)
sch.step(torch.tensor(0.5), epoch=10)
print(sch.last_epoch)
try:
    ReduceLROnPlateau(opt, min_lr=[0.1])
except ValueError as e:
    print(e)
s2 = ReduceLROnPlateau(opt, patience=0, min_lr=[0.1, 0.2])
opt.add_param_group({"params": [torch.nn.Parameter(torch.zeros(1))]})
s2.step(1.0)
try:
    s2.step(2.0)
except RuntimeError as e:
    print(e)
from torch.optim.lr_scheduler import OneCycleLR, StepLR

w = torch.nn.Parameter(torch.zeros(1))
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
sch = OneCycleLR(opt, max_lr=0.01, steps_per_epoch=3, epochs=2)
lrs, moms = [], []
for _ in range(6):
    opt.step()
    lrs.append(round(opt.param_groups[0]["lr"], 8))
    moms.append(round(opt.param_groups[0]["momentum"], 6))
    sch.step()
print(lrs)
print(moms)
try:
    sch.step()
except Exception as e:
    print(type(e).__name__, e)
opt = torch.optim.Adam([w], lr=0.1)
sch = OneCycleLR(opt, max_lr=1.0, total_steps=4, anneal_strategy="linear", three_phase=True)
print(opt.param_groups[0]["betas"], round(opt.param_groups[0]["lr"], 6))
opt = torch.optim.SGD([w], lr=1.0)
sch = ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.01, cooldown=1, min_lr=0.1)
for loss in [1.0, 0.99, 0.995, 0.98, 0.97, 0.97, 0.97, 0.97, 0.97, 0.97, 0.97]:
    sch.step(loss)
    print(opt.param_groups[0]["lr"], sch.num_bad_epochs, sch.cooldown_counter, sch.best)
print(sch.get_last_lr())
sd = sch.state_dict()
print(sorted(sd))
opt = torch.optim.SGD([w], lr=1.0)
sch = StepLR(opt, step_size=1, gamma=0.5)
opt.step(); sch.step(); opt.step(); sch.step()
sd = sch.state_dict()
opt2 = torch.optim.SGD([w], lr=1.0)
sch2 = StepLR(opt2, step_size=1, gamma=0.1)
sch2.load_state_dict(sd)
print(sch2.gamma, sch2.last_epoch, sch2.get_last_lr(), opt2.param_groups[0]["lr"])
opt = torch.optim.SGD([w], lr=1.0)
sch = StepLR(opt, step_size=1)
sch.step()
