import torch
from torch import nn

for cls, kw in [(torch.optim.Adam, {}), (torch.optim.Adam, {"weight_decay": 0.1}),
                (torch.optim.AdamW, {}), (torch.optim.AdamW, {"weight_decay": 0.5, "amsgrad": True}),
                (torch.optim.Adam, {"betas": (0.8, 0.9), "eps": 1e-6, "maximize": True})]:
    lin = nn.Linear(2, 1)
    nn.init.constant_(lin.weight, 0.5)
    nn.init.constant_(lin.bias, -0.5)
    opt = cls(lin.parameters(), lr=0.05, **kw)
    x = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
    y = torch.tensor([[1.0], [0.0]])
    for step in range(4):
        opt.zero_grad()
        loss = nn.functional.mse_loss(lin(x), y)
        loss.backward()
        opt.step()
    print(cls.__name__, sorted(kw), lin.weight.data, lin.bias.data, round(loss.item(), 5))
print(opt.defaults)
print(sorted(opt.state[lin.weight].keys()), opt.state[lin.weight]["step"])
