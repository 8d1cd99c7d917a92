import torch
from torch import nn


class RunningMean(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("mean", torch.zeros(n))
        self.register_buffer("count", torch.tensor(0))
        self.register_buffer("tmp", torch.ones(1), persistent=False)
        self.scale = nn.Parameter(torch.ones(n))

    def forward(self, x):
        if self.training:
            with torch.no_grad():
                self.count += 1
                self.mean += (x.mean(0) - self.mean) / self.count
        return (x - self.mean) * self.scale


m = RunningMean(3)
print(m)
print(list(m.state_dict().keys()))
print([n for n, _ in m.named_buffers()])
print([n for n, _ in m.named_parameters()])
x = torch.arange(6.0).reshape(2, 3)
print(m(x))
print(m(x + 1))
print(m.mean, m.count)
m.eval()
print(m(x))
print(m.count)
print(m.mean.requires_grad)
print(m.state_dict())
try:
    m.register_buffer("scale", torch.zeros(3))
except KeyError as e:
    print("KeyError", e)
m.register_buffer("none_buf", None)
print(m.none_buf, list(m.state_dict()))
