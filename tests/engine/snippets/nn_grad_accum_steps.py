import torch
from torch import nn

model = nn.Linear(2, 1)
nn.init.constant_(model.weight, 0.5)
nn.init.constant_(model.bias, 0.0)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.arange(8.0).reshape(4, 2)
target = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
accum = 2
opt.zero_grad()
for i in range(4):
    loss = nn.functional.mse_loss(model(data[i : i + 1]), target[i : i + 1]) / accum
    loss.backward()
    print(i, round(loss.item(), 4), model.weight.grad)
    if (i + 1) % accum == 0:
        opt.step()
        opt.zero_grad()
        print("step", model.weight.data, model.weight.grad)
