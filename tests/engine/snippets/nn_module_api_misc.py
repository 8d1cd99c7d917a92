import torch
from torch import nn

m = nn.Linear(2, 2)
print(m.in_features, m.out_features)
print(m.training)
print(m.train(False) is m, m.training)
print(m.eval().training)
m2 = nn.Linear(2, 2, bias=False)
print(m2, m2.bias)
print(list(m2.state_dict()))
m.to(torch.float64)
print(m.weight.dtype)
m.float()
print(m.weight.dtype)
m.double()
print(m.bias.dtype)
print(m.to("cpu") is m)
print(m.weight.device)
print(next(m.parameters()).device)
c = nn.Linear(2, 2).half()
print(c.weight.dtype)
s = nn.Sequential(nn.Linear(1, 1))
print(s.state_dict().keys())
print(type(s.state_dict()).__name__)
try:
    nn.Linear(2, 2)(torch.ones(3))
except RuntimeError as e:
    print(e)
try:
    nn.Linear(2, 2)(torch.ones(2, 3))
except RuntimeError as e:
    print(e)
print(nn.Identity()(torch.tensor([1.0])))
try:
    s.load_state_dict({"0.weight": torch.ones(1, 1)})
except RuntimeError as e:
    print(e)
print(s.load_state_dict({"0.weight": torch.ones(1, 1)}, strict=False))
try:
    s.load_state_dict({"0.weight": torch.ones(2, 1), "0.bias": torch.ones(1)})
except RuntimeError as e:
    print(e)
