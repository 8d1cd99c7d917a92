import torch
from torch import nn


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(3, 2, bias=False)
        self.dec = nn.Linear(2, 3, bias=False)
        self.dec.weight = nn.Parameter(self.enc.weight.t())
        self.shared = nn.Linear(2, 2)
        self.again = self.shared

    def forward(self, x):
        return self.dec(self.again(self.shared(self.enc(x))))


m = Tied()
print(m)
print([n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_modules()])
print(len(list(m.parameters())), len(list(m.modules())))
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_parameters(remove_duplicate=False)])
lin = nn.Linear(2, 2)
seq = nn.Sequential(lin, nn.ReLU(), lin)
nn.init.constant_(lin.weight, 0.5)
nn.init.zeros_(lin.bias)
print(seq, len(list(seq.parameters())))
out = seq(torch.tensor([[1.0, 2.0]]))
out.sum().backward()
print(out, lin.weight.grad)
