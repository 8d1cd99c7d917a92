import torch
from torch import nn
m2 = nn.Linear(2, 2)
def sd_hook(module, state_dict, prefix, local_metadata):
    print("sd hook", list(state_dict.keys()), repr(prefix), local_metadata)
m2._register_state_dict_hook(sd_hook)
print(list(m2.state_dict().keys()))
h = m2.register_state_dict_post_hook(lambda mod, sd, prefix, meta: print("post", repr(prefix)))
m2.state_dict()
h.remove()
m2.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: print("pre", repr(prefix), keep_vars))
def lpre(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    print("load pre", repr(prefix), strict, local_metadata, sorted(state_dict))
m2._register_load_state_dict_pre_hook(lpre, with_module=True)
m2.register_load_state_dict_post_hook(lambda mod, keys: print("load post", keys))
print(m2.load_state_dict(m2.state_dict()))
print(m2.load_state_dict({'weight': torch.zeros(2, 2)}, strict=False))
try:
    m2.load_state_dict({'weight': torch.zeros(2, 2)})
except RuntimeError as e:
    print(e)
# a model with children: every module's hooks, with their prefixes
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Sequential(nn.ReLU(), nn.Linear(4, 1)))
for name, mod in model.named_modules():
    mod.register_state_dict_pre_hook(lambda m, prefix, kv: print("pre", type(m).__name__, repr(prefix)))
    mod.register_load_state_dict_pre_hook(
        lambda m, sd, prefix, meta, *rest: print("lpre", type(m).__name__, repr(prefix), meta, len(sd)))
    mod.register_load_state_dict_post_hook(lambda m, keys: print("lpost", type(m).__name__, keys))
sd = model.state_dict()
print(list(sd.keys()))
print(sd._metadata)
print(model.load_state_dict(sd))
# a hook that renames keys (as checkpoint converters do) and one that drops a key
def rename(module, state_dict, prefix, local_metadata):
    for k in list(state_dict):
        if k.startswith(prefix) and k.endswith("bias"):
            state_dict[k.replace("bias", "b")] = state_dict.pop(k)
lin = nn.Linear(2, 1)
lin.register_state_dict_post_hook(rename)
print(list(lin.state_dict()))
def upgrade(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
    if prefix + "b" in state_dict:
        state_dict[prefix + "bias"] = state_dict.pop(prefix + "b")
lin._register_load_state_dict_pre_hook(upgrade)
print(lin.load_state_dict(lin.state_dict()))
def bad(module, sd, prefix, meta):
    return sd
lin2 = nn.Linear(2, 1)
lin2.register_state_dict_post_hook(bad)
try:
    lin2.state_dict()
except RuntimeError as e:
    print(e)
try:
    lin2._register_state_dict_hook(bad)
except RuntimeError as e:
    print(e)
class Custom(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(2))
    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        print("custom load", repr(prefix), local_metadata)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
c = nn.Sequential(Custom())
print(c.load_state_dict({'0.w': torch.zeros(2)}), c[0].w)
print(nn.Linear(1, 1).state_dict(None, 'x.').keys())
