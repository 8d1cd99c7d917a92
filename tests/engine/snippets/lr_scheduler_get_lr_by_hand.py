import torch
from torch.optim import lr_scheduler

# older tutorials print scheduler.get_lr(): PyTorch warns (get_last_lr() is the value in use)
# and returns the chainable form's next value
model = torch.nn.Linear(2, 1)
makers = [
    lambda o: lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
    lambda o: lr_scheduler.MultiStepLR(o, milestones=[1, 2], gamma=0.1),
    lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9),
    lambda o: lr_scheduler.LambdaLR(o, lambda e: 0.5**e),
    lambda o: lr_scheduler.MultiplicativeLR(o, lambda e: 0.9),
    lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=2),
    lambda o: lr_scheduler.LinearLR(o, start_factor=0.5, total_iters=3),
    lambda o: lr_scheduler.PolynomialLR(o, total_iters=4),
    lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4),
    lambda o: lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2),
    lambda o: lr_scheduler.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2),
    lambda o: lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=5),
]
for make in makers:
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = make(optimizer)
    for epoch in range(2):
        optimizer.step()
        scheduler.step()
    print(type(scheduler).__name__, scheduler.get_last_lr(), scheduler.get_lr())
