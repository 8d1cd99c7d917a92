import torch
from torch import nn

w = nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
opt = torch.optim.Adagrad([w], lr=0.1)
print(opt)
print(opt.state_dict())
for i in range(4):
    opt.zero_grad()
    loss = (w ** 2).sum() + w.sum()
    loss.backward()
    opt.step()
    print(i, w.data, f"{loss.item():.6f}")
print(opt.state_dict()["state"])
w2 = nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
opt2 = torch.optim.Adagrad([w2], lr=0.5, lr_decay=0.1, weight_decay=0.01, initial_accumulator_value=0.1)
for i in range(3):
    opt2.zero_grad()
    (w2.pow(2).sum()).backward()
    opt2.step()
print(w2)
print(opt2.state[w2]["sum"], opt2.state[w2]["step"])
