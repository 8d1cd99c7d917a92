import copy
import io
import pickle

import torch
import torch.nn.utils.parametrize as P
from torch import nn


# register_parametrization swaps the module's class for a new `Parametrized<Name>` subclass (one
# per module); removing the last parametrization swaps it back
class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


torch.manual_seed(0)
m = nn.Linear(3, 3)
print(type(m).__name__, type(m).__module__)
P.register_parametrization(m, "weight", Symmetric())
cls = type(m)
print(cls.__name__, cls.__qualname__, cls.__module__, cls.__bases__)
print(m)
print(isinstance(m, nn.Linear), P.is_parametrized(m), P.type_before_parametrizations(m))
P.register_parametrization(m, "bias", nn.Identity())
print(type(m) is cls, type(m).__name__, sorted(m.state_dict()))
other = nn.Linear(3, 3)
P.register_parametrization(other, "weight", Symmetric())
print(type(other).__name__, type(other) is cls)
c = nn.Conv1d(1, 1, 2)
P.register_parametrization(c, "bias", nn.Identity())
print(type(c).__name__, type(c).__bases__)
seq = nn.Sequential(m, nn.ReLU())
print(seq)
twin = copy.deepcopy(m)
print(type(twin).__name__, type(twin) is type(m), torch.equal(twin.weight, m.weight))
try:
    pickle.dumps(m)
except RuntimeError as err:
    print("pickle:", err)
try:
    torch.save(m, io.BytesIO())
except RuntimeError as err:
    print("save:", err)
P.remove_parametrizations(m, "weight")
print(type(m).__name__, type(m) is cls)
P.remove_parametrizations(m, "bias")
print(type(m).__name__, type(m) is nn.Linear, P.type_before_parametrizations(m), m)
print(torch.allclose(m.weight, m.weight.T))
