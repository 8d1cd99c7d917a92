import torch
from torch import nn


class MyModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.linears = nn.ModuleList([nn.Linear(3, 3) for i in range(3)])
        self.acts = nn.ModuleDict({"relu": nn.ReLU(), "tanh": nn.Tanh()})
        for lin in self.linears:
            nn.init.eye_(lin.weight)
            nn.init.constant_(lin.bias, 0.1)

    def forward(self, x, act="relu"):
        for i, l in enumerate(self.linears):
            x = self.linears[i // 2](x) + l(x)
            x = self.acts[act](x)
        return x


m = MyModule()
print(m)
x = torch.tensor([[1.0, -2.0, 0.5]])
print(m(x))
print(m(x, "tanh"))
print(len(m.linears), len(m.acts), list(m.acts.keys()))
print([n for n, _ in m.named_parameters()])
m.linears.append(nn.Linear(3, 3))
m.linears.extend([nn.Linear(3, 1)])
print(len(m.linears), m.linears[-1])
print(m.linears[1:3])
print("relu" in m.acts, type(m.acts["tanh"]).__name__)
for k, v in m.acts.items():
    print(k, v)
