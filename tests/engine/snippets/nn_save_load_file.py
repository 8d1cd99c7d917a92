import os
import tempfile
import torch
from torch import nn

net = nn.Linear(3, 2)
nn.init.constant_(net.weight, 0.5)
nn.init.zeros_(net.bias)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
net(torch.ones(1, 3)).sum().backward()
opt.step()
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "ckpt.pt")
    torch.save({"model": net.state_dict(), "opt": opt.state_dict()}, path)
    ck = torch.load(path)
    print(ck["model"])
    print(ck["opt"])
    net2 = nn.Linear(3, 2)
    net2.load_state_dict(ck["model"])
    opt2 = torch.optim.SGD(net2.parameters(), lr=0.5)
    opt2.load_state_dict(ck["opt"])
    print(opt2.param_groups[0]["lr"], opt2.param_groups[0]["momentum"])
    print(opt2.state_dict()["state"])
    torch.save(net, path)
    try:
        torch.load(path)
    except Exception as e:
        print(type(e).__name__)
    m = torch.load(path, weights_only=False)
    print(m, m.weight)
