import types

import torch
from torch import nn
from torch.nn.utils._named_member_accessor import NamedMemberAccessor
from torch.nn.utils.clip_grad import clip_grad_norm_
from torch.nn.utils import get_total_norm

# dir() without the submodules (which depend on what else has been imported)
public = [n for n in dir(nn.utils) if not n.startswith("_")]
print([n for n in public if not isinstance(getattr(nn.utils, n), types.ModuleType)])
names = ["clip_grad", "convert_parameters", "fusion", "init", "memory_format", "parametrizations"]
names += ["parametrize", "rnn", "stateless", "_named_member_accessor"]
print([isinstance(getattr(nn.utils, n, None), types.ModuleType) for n in names])
print(torch.nn.utils.clip_grad.__all__)
print(torch.nn.utils.convert_parameters.parameters_to_vector is nn.utils.parameters_to_vector)
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for i, p in enumerate(m.parameters()):
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) - i)
m(torch.tensor([[1.0, -2.0]])).sum().backward()
print(clip_grad_norm_(m.parameters(), 0.5), get_total_norm([p.grad for p in m.parameters()]))
acc = NamedMemberAccessor(m)
print(acc.get_tensor("2.bias"), acc.get_submodule("0"))
old = acc.swap_tensor("0.weight", torch.ones(2, 2))
print(old, m[0].weight)
print(acc.check_keys(["0.weight", "0.bias", "extra"]))
orig, missing = acc.swap_tensors_dict({"0.weight": old, "x": torch.zeros(1)}, allow_missing=True)
print(sorted(orig), missing, m[0].weight, hasattr(m, "x"))
try:
    acc.swap_tensors_dict({"nope": torch.zeros(1)})
except RuntimeError as e:
    print(e)
try:
    acc.get_submodule("0.weight")
except TypeError as e:
    print(type(e).__name__)
try:
    acc.set_tensor("0.a.b", torch.zeros(1))
except AttributeError as e:
    print(e)
print(get_total_norm.__name__, nn.utils.clip_grads_with_norm_.__name__)
