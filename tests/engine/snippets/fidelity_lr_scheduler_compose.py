import torch
from torch import nn
from torch.optim.lr_scheduler import (ChainedScheduler, ConstantLR, CosineAnnealingLR, CyclicLR,
                                      ExponentialLR, LinearLR, SequentialLR, StepLR)
model = nn.Linear(4, 2)
# the docs' SequentialLR example (milestone lowered)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler1 = ConstantLR(optimizer, factor=0.1, total_iters=3)
scheduler2 = ExponentialLR(optimizer, gamma=0.9)
scheduler = SequentialLR(optimizer, schedulers=[scheduler1, scheduler2], milestones=[3])
for epoch in range(6):
    optimizer.step()
    scheduler.step()
    print(epoch, scheduler.get_last_lr())
print(sorted(scheduler.state_dict().keys()), scheduler.state_dict()['_milestones'])
# the docs' ChainedScheduler example
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler1 = ConstantLR(optimizer, factor=0.1, total_iters=3)
scheduler2 = ExponentialLR(optimizer, gamma=0.9)
scheduler = ChainedScheduler([scheduler1, scheduler2], optimizer=optimizer)
for epoch in range(5):
    optimizer.step()
    scheduler.step()
    print(epoch, scheduler.get_last_lr())
# warmup then cosine, as training recipes write it
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
warmup = LinearLR(optimizer, start_factor=0.1, total_iters=2)
cosine = CosineAnnealingLR(optimizer, T_max=4)
scheduler = SequentialLR(optimizer, [warmup, cosine], milestones=[2])
for epoch in range(6):
    optimizer.step()
    scheduler.step()
    print(epoch, [round(x, 8) for x in scheduler.get_last_lr()])
# CyclicLR
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = CyclicLR(optimizer, base_lr=0.01, max_lr=0.1, step_size_up=3)
for i in range(7):
    optimizer.step()
    scheduler.step()
    print(i, [round(x, 6) for x in scheduler.get_last_lr()], round(optimizer.param_groups[0]['momentum'], 6))
optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
scheduler = CyclicLR(optimizer, base_lr=0.001, max_lr=0.01, step_size_up=2, mode="triangular2")
for i in range(6):
    optimizer.step()
    scheduler.step()
print([round(x, 6) for x in scheduler.get_last_lr()], optimizer.param_groups[0]['betas'])
scheduler = CyclicLR(optimizer, base_lr=0.001, max_lr=0.01, step_size_up=2, mode="exp_range", gamma=0.9)
for i in range(5):
    optimizer.step()
    scheduler.step()
print([round(x, 6) for x in scheduler.get_last_lr()])
try:
    CyclicLR(torch.optim.Adagrad(model.parameters()), base_lr=0.01, max_lr=0.1)
except ValueError as e:
    print(e)
try:
    SequentialLR(optimizer, [StepLR(optimizer, 2)], milestones=[1])
except ValueError as e:
    print(e)
# the explicit-epoch form uses the closed form (and warns)
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
scheduler = StepLR(optimizer, step_size=2, gamma=0.5)
optimizer.step()
scheduler.step(5)
print(scheduler.get_last_lr())
# scheduler stepped before the optimizer: PyTorch warns
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = ExponentialLR(optimizer, gamma=0.5)
scheduler.step()
optimizer.step()
scheduler.step()
print(scheduler.get_last_lr())
