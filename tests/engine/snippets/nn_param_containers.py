import torch
from torch import nn


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.params = nn.ParameterList([nn.Parameter(torch.ones(2, 2) * i) for i in range(3)])
        self.named = nn.ParameterDict({"right": nn.Parameter(torch.ones(2)), "left": nn.Parameter(torch.zeros(2))})

    def forward(self, x, choice="left"):
        for i, p in enumerate(self.params):
            x = self.params[i // 2].mm(x) + p.mm(x)
        return x + self.named[choice]


m = MyModule()
print(m)
print([n for n, _ in m.named_parameters()])
out = m(torch.ones(2, 2), "right")
print(out)
out.sum().backward()
print(m.params[0].grad, m.named["left"].grad)
print(len(m.params), len(m.named), list(m.named.keys()), "left" in m.named)
m.params.append(torch.zeros(1))
print(type(m.params[3]).__name__, m.params[3].requires_grad)
for k, v in m.named.items():
    print(k, v.shape)
print(list(m.state_dict().keys()))
print(nn.ParameterList())
print(sum(p.numel() for p in m.parameters()))
