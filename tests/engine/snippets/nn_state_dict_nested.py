import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.lin = nn.Linear(n, n)
        self.norm = nn.LayerNorm(n)
        self.register_buffer("step", torch.tensor(0))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block(2) for _ in range(2)])
        self.head = nn.ModuleDict({"cls": nn.Linear(2, 3), "reg": nn.Linear(2, 1)})
        self.bn = nn.BatchNorm1d(2)


m = Model()
sd = m.state_dict()
for k, v in sd.items():
    print(k, tuple(v.shape), v.dtype)
missing = {k: v for k, v in sd.items() if not k.startswith("head.reg")}
missing["unexpected.weight"] = torch.zeros(1)
r = m.load_state_dict(missing, strict=False)
print(r.missing_keys, r.unexpected_keys)
print(r)
try:
    m.load_state_dict(missing)
except RuntimeError as e:
    print(e)
sub = m.blocks[0].state_dict(prefix="blocks.0.")
print(list(sub))
print(list(m.head.state_dict().keys()))
