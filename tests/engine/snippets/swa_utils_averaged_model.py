# the SWA and EMA recipe of torch.optim.swa_utils' docs: AveragedModel, SWALR, update_bn
import torch
from torch.optim.swa_utils import AveragedModel, SWALR, get_ema_multi_avg_fn, update_bn
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
swa_model = AveragedModel(model)
ema_model = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=100)
swa_scheduler = SWALR(opt, swa_lr=0.05, anneal_epochs=3)
loader = [(torch.randn(8, 3), torch.randn(8, 1)) for _ in range(3)]
lrs = []
for epoch in range(6):
    for x, y in loader:
        opt.zero_grad()
        torch.nn.functional.mse_loss(model(x), y).backward()
        opt.step()
        ema_model.update_parameters(model)
    if epoch > 2:
        swa_model.update_parameters(model)
        swa_scheduler.step()
    else:
        scheduler.step()
    lrs.append(round(opt.param_groups[0]["lr"], 6))
print(lrs)
print(swa_model.n_averaged, ema_model.n_averaged)
print(swa_model.module[0].weight)
print(ema_model.module[2].bias)
update_bn(loader, swa_model)
print(swa_model.module[1].running_mean, swa_model.module[1].momentum, swa_model.training)
print(swa_model(torch.ones(2, 3)))
print([n for n, _ in swa_model.named_buffers()][:2], swa_model)
lin = SWALR(torch.optim.SGD([torch.nn.Parameter(torch.ones(1))], lr=1.0), swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
out = []
for _ in range(4):
    lin.optimizer.step(); lin.step(); out.append(round(lin.get_last_lr()[0], 6))
print(out)
try:
    SWALR(opt, swa_lr=0.1, anneal_strategy="exp")
except ValueError as e:
    print(e)
