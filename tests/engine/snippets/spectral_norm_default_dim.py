import torch
from torch import nn
from torch.nn.utils import parametrizations, spectral_norm

torch.manual_seed(0)
makers = [
    lambda: nn.Linear(2, 3),
    lambda: nn.Conv2d(2, 3, 1),
    lambda: nn.ConvTranspose1d(2, 3, 1),
    lambda: nn.ConvTranspose2d(2, 3, 1),
    lambda: nn.ConvTranspose3d(2, 3, 1),
]
for make in makers:
    m = spectral_norm(make())
    hook = next(h for h in m._forward_pre_hooks.values())
    p = parametrizations.spectral_norm(make())
    sn = p.parametrizations.weight[0]
    # the power iteration's u has the size of the weight's dim
    print(type(m).__name__, hook.dim, tuple(m.weight_u.shape), sn.dim, tuple(sn._u.shape))
