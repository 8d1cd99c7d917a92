import torch
from torch import nn
from torch.optim import lr_scheduler as L

p = nn.Parameter(torch.ones(1))


def run(make_opt, make_sched, steps=8):
    opt = make_opt()
    s = make_sched(opt)
    out = []
    for _ in range(steps):
        opt.step()
        s.step()
        out.append(opt.param_groups[0]["lr"])
    print(type(s).__name__, out)
    return opt, s


run(lambda: torch.optim.SGD([p], lr=0.1), lambda o: L.LinearLR(o, start_factor=0.25, total_iters=4))
run(lambda: torch.optim.SGD([p], lr=0.1), lambda o: L.ConstantLR(o, factor=0.5, total_iters=3))
run(lambda: torch.optim.SGD([p], lr=0.1), lambda o: L.MultiplicativeLR(o, lr_lambda=lambda e: 0.9))
run(lambda: torch.optim.SGD([p], lr=0.1), lambda o: L.PolynomialLR(o, total_iters=5, power=2.0))
run(lambda: torch.optim.SGD([p], lr=0.1), lambda o: L.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2, eta_min=0.01), 10)
opt, s = run(lambda: torch.optim.SGD([p], lr=0.1, momentum=0.9), lambda o: L.OneCycleLR(o, max_lr=1.0, total_steps=10), 9)
print(opt.param_groups[0]["momentum"], sorted(k for k in opt.param_groups[0] if k != "params"))
opt, s = run(lambda: torch.optim.Adam([p], lr=0.1), lambda o: L.OneCycleLR(o, max_lr=0.5, epochs=2, steps_per_epoch=5, anneal_strategy="linear"), 9)
print(opt.param_groups[0]["betas"])
print(s.get_last_lr(), s.last_epoch)
opt = torch.optim.SGD([p], lr=0.1)
s = L.LinearLR(opt, start_factor=0.5, total_iters=2)
print(opt.param_groups[0]["lr"], s.get_last_lr())
try:
    L.LinearLR(opt, start_factor=0.0)
except ValueError as e:
    print(e)
