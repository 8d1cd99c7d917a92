import torch
import torch.nn as nn


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        m.bias.data.fill_(0.01)
    elif isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        nn.init.zeros_(m.bias)


torch.manual_seed(0)
net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3), nn.Linear(3, 1))
net.apply(init_weights)
for name, p in net.named_parameters():
    print(name, p.data)
print(net(torch.ones(1, 1, 4, 4)))
lin = nn.Linear(2, 2)
nn.init.constant_(lin.weight, 0.5)
nn.init.eye_(lin.weight)
nn.init.ones_(lin.bias)
print(lin.weight, lin.bias)
print(nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("tanh"))
w = torch.empty(2, 3)
nn.init.orthogonal_(w)
print(w)
nn.init.sparse_(w, 0.5) if hasattr(nn.init, "sparse_") else None
