from collections import OrderedDict
import torch
from torch import nn

model = nn.Sequential(OrderedDict([
    ("conv1", nn.Conv2d(1, 20, 5)),
    ("relu1", nn.ReLU()),
    ("conv2", nn.Conv2d(20, 64, 5)),
    ("relu2", nn.ReLU()),
]))
print(model)
print(model.conv1)
print(model[0] is model.conv1)
print([n for n, _ in model.named_children()])
print(list(model.state_dict().keys()))
print(model.conv2.weight.shape)
model.add_module("flat", nn.Flatten())
print(len(model), list(dict(model.named_children())))
model.append(nn.Identity())
print(model[-1])
del model[-1]
print(len(model))
mlp = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 1))
for idx, m in enumerate(mlp.modules()):
    print(idx, "->", m)
for name, m in mlp.named_modules():
    print(repr(name), type(m).__name__)
