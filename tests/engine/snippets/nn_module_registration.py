import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_parameter("alpha", nn.Parameter(torch.tensor(1.0)))
        self.register_parameter("beta", None)
        self.sub = nn.Linear(1, 1)
        self.add_module("extra", nn.ReLU())
        self.register_module("other", nn.Tanh())


m = M()
print(m)
print(m.beta, [n for n, _ in m.named_parameters()])
print([n for n, _ in m.named_parameters(recurse=False)])
print([n for n, _ in m.named_parameters(prefix="model")])
print(list(m.named_children())[0][0], [n for n, _ in m.named_children()])
m.sub = None
print(m.sub, [n for n, _ in m.named_children()])
del m.extra
print([n for n, _ in m.named_children()], hasattr(m, "extra"))
m.alpha = nn.Parameter(torch.tensor(2.0))
print(m.alpha)
try:
    m.register_parameter("bad.name", nn.Parameter(torch.ones(1)))
except KeyError as e:
    print("KeyError", e)
try:
    m.register_parameter("t", torch.ones(1))
except TypeError as e:
    print(e)
try:
    m.add_module("x", 3)
except TypeError as e:
    print(e)


class NoSuper(nn.Module):
    def __init__(self):
        self.lin = nn.Linear(1, 1)


try:
    NoSuper()
except AttributeError as e:
    print(e)
print(nn.Module())
print(m.get_submodule("other"), m.get_parameter("alpha"))
try:
    m.get_submodule("nope")
except AttributeError as e:
    print(e)
