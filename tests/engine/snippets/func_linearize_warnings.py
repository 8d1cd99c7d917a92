import torch

# the first forward-AD use warns (jit.script deprecation) before linearize's make_fx warning
from torch.func import linearize

x = torch.tensor([0.5, 1.0])
out, jvp_fn = linearize(torch.sin, x)
print(out, jvp_fn(torch.ones(2)))
out, jvp_fn = linearize(lambda x: x.exp().sum(), x)
print(out, jvp_fn(torch.tensor([1.0, 0.0])))
