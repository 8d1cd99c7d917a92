import torch
from torch import nn

lin = nn.Linear(4, 3)
nn.init.constant_(lin.weight, 0.3)
nn.init.zeros_(lin.bias)
print(lin.weight, lin.bias)
nn.init.ones_(lin.bias)
print(lin.bias)
w = torch.empty(3, 3)
print(nn.init.eye_(w))
print(nn.init.dirac_(torch.empty(2, 2, 3)))
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("tanh"), nn.init.calculate_gain("leaky_relu", 0.2))
print(nn.init.calculate_gain("sigmoid"), nn.init.calculate_gain("linear"))


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.constant_(m.weight, 0.01)
        m.bias.data.fill_(0.01)


net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2))
print(net.apply(init_weights) is net)
print(net[2].weight, net[0].bias)
t = torch.empty(1000, 100)
nn.init.xavier_uniform_(t)
bound = (6 / (1000 + 100)) ** 0.5
print(t.abs().max().item() <= bound, t.shape)
nn.init.kaiming_normal_(t, mode="fan_out", nonlinearity="relu")
print(abs(t.std().item() - (2 / 1000) ** 0.5) < 0.002)
nn.init.uniform_(t, -0.1, 0.1)
print(t.min().item() >= -0.1, t.max().item() <= 0.1)
nn.init.normal_(t, mean=1.0, std=0.01)
print(abs(t.mean().item() - 1.0) < 0.01)
out = nn.init.trunc_normal_(t, std=0.02)
print(out is t, t.abs().max().item() <= 2.0)
print(lin.weight.requires_grad, lin.weight.grad_fn)
