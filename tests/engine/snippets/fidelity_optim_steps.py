import torch
import torch.nn as nn

torch.manual_seed(3)
model = nn.Linear(4, 2)
X = torch.randn(6, 4)
T = torch.randn(6, 2)
for opt_cls, kw in [(torch.optim.SGD, dict(lr=0.1, momentum=0.9)), (torch.optim.Adam, dict(lr=0.01)),
                    (torch.optim.AdamW, dict(lr=0.01, weight_decay=0.1)), (torch.optim.RMSprop, dict(lr=0.01))]:
    torch.manual_seed(3)
    model = nn.Linear(4, 2)
    opt = opt_cls(model.parameters(), **kw)
    for _ in range(3):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(X), T)
        loss.backward()
        opt.step()
    print(opt_cls.__name__, round(loss.item(), 5), model.bias.data)
print(opt)
print(opt.param_groups[0]["lr"], len(opt.state))
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
opt.step()
sched.step()
print(sched.get_last_lr())
