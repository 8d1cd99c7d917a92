import torch

w = torch.nn.Parameter(torch.ones(1))
opt = torch.optim.SGD([w], lr=1.0)
scheds = {
    "step": lambda o: torch.optim.lr_scheduler.StepLR(o, step_size=2, gamma=0.5),
    "exp": lambda o: torch.optim.lr_scheduler.ExponentialLR(o, gamma=0.9),
    "cos": lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, T_max=4),
    "lambda": lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (e + 1)),
    "multistep": lambda o: torch.optim.lr_scheduler.MultiStepLR(o, milestones=[1, 3], gamma=0.1),
    "onecycle": lambda o: torch.optim.lr_scheduler.OneCycleLR(o, max_lr=0.1, total_steps=5),
}
for name, make in scheds.items():
    opt = torch.optim.SGD([w], lr=1.0)
    s = make(opt)
    lrs = []
    for _ in range(5):
        opt.step()
        s.step()
        lrs.append(round(s.get_last_lr()[0], 6))
    print(name, lrs)
