import torch
import torch.nn as nn
from torch.nn.modules.module import (
    register_module_forward_hook,
    register_module_forward_pre_hook,
    register_module_full_backward_hook,
    register_module_full_backward_pre_hook,
)

torch.manual_seed(0)
log = []
h1 = register_module_forward_pre_hook(lambda m, inp: log.append(("gpre", type(m).__name__)))
h2 = register_module_forward_hook(lambda m, inp, out: log.append(("gpost", type(m).__name__)))
model = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
model[0].register_forward_pre_hook(lambda m, inp: log.append(("pre", type(m).__name__)))
model[0].register_forward_hook(lambda m, inp, out: log.append(("post", type(m).__name__)))
x = torch.randn(1, 2, requires_grad=True)
out = model(x)
print(log)
print(type(h1).__name__)
h1.remove()
h2.remove()
log.clear()
model(x)
print(log)

# a global forward hook that replaces the output
h = register_module_forward_hook(lambda m, inp, out: out * 0 if isinstance(m, nn.Tanh) else None)
print(model(x))
h.remove()

# global backward hooks
h3 = register_module_full_backward_pre_hook(lambda m, go: log.append(("gbpre", type(m).__name__)))
h4 = register_module_full_backward_hook(lambda m, gi, go: log.append(("gbwd", type(m).__name__)))
log.clear()
out = model(x)
print(out.grad_fn.name())
out.sum().backward()
print(log)
h3.remove()
h4.remove()
log.clear()
model(x).sum().backward()
print(log)

# kwargs and always_call
h5 = register_module_forward_hook(lambda m, a, k, o: log.append(("kw", sorted(k))), with_kwargs=True)
model(x)
print(log[-2:])
h5.remove()
from torch.nn.modules.module import register_module_buffer_registration_hook, register_module_module_registration_hook, register_module_parameter_registration_hook
hb = register_module_buffer_registration_hook(lambda m, n, b: print("buffer", type(m).__name__, n))
hp = register_module_parameter_registration_hook(lambda m, n, p: print("param", type(m).__name__, n, tuple(p.shape)))
hm = register_module_module_registration_hook(lambda m, n, s: print("module", type(m).__name__, n, type(s).__name__))
nn.BatchNorm1d(2)
nn.Sequential(nn.Linear(1, 1))
hb.remove(); hp.remove(); hm.remove()
nn.Linear(1, 1)


class Boom(nn.Module):
    def forward(self, x):
        raise ValueError("boom")


b = Boom()
b.register_forward_hook(lambda m, a, o: print("always, output", o), always_call=True)
hg = register_module_forward_hook(lambda m, a, o: print("global always", type(m).__name__), always_call=True)
try:
    b(x)
except ValueError as e:
    print("raised", e)
hg.remove()
