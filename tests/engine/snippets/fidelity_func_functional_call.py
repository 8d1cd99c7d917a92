# functional_call: dict / tuple-of-dicts arguments, strict keys, restored state; stack_module_state.
import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state


def attempt(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)


torch.manual_seed(0)
m = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
x = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
p = {k: torch.ones_like(v) for k, v in m.named_parameters()}
attempt(lambda: functional_call(m, p, x))
attempt(lambda: functional_call(m, (p, {}), (x,)))
attempt(lambda: functional_call(m, {"0.weight": torch.zeros(2, 2)}, (x,)))
attempt(lambda: functional_call(m, {"0.weight": torch.zeros(2, 2)}, (x,), strict=True))
attempt(lambda: functional_call(m, {**p, "extra": torch.zeros(1)}, (x,), strict=True))
attempt(lambda: functional_call(m, ({"0.bias": torch.zeros(2)}, {"0.bias": torch.ones(2)}), (x,)))
print(m(x))
print(m[0].weight.requires_grad, hasattr(m, "extra"))
models = [nn.Linear(2, 2) for _ in range(3)]
params, buffers = stack_module_state(models)
print({k: (tuple(v.shape), v.requires_grad, v.is_leaf) for k, v in params.items()}, buffers)
models[1].bias.requires_grad_(False)
attempt(lambda: stack_module_state(models))
attempt(lambda: stack_module_state([nn.Linear(2, 2), nn.Linear(3, 2)]))
stack_module_state([nn.Linear(2, 2), nn.Linear(2, 2).eval()])
