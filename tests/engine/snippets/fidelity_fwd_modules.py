# Forward AD with nn.Module parameters (delattr/setattr and functional_call), as in the tutorial.
import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
model = nn.Linear(5, 5)
input = torch.randn(4, 5)

params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}

with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
    print(out.grad_fn.name())
    print(jvp)

model = nn.Linear(5, 5)
dual_params = {}
with fwAD.dual_level():
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
    print(jvp2)
print(torch.allclose(jvp, jvp2))
expected = input @ tangents["weight"].T + tangents["bias"]
print(torch.allclose(jvp, expected))

with fwAD.dual_level():
    x = fwAD.make_dual(torch.ones(2, 5), torch.ones(2, 5))
    with torch.no_grad():
        y = nn.functional.relu(nn.Linear(5, 3)(x)).sum(1)
    print(y)
