import torch
from torch.func import vmap, functional_call, stack_module_state

for r in ["error", "same", "different"]:
    try:
        out = vmap(lambda x: torch.nn.functional.dropout(x, 0.5), randomness=r)(torch.ones(3, 4))
        print(r, out.shape)
    except Exception as e:
        print(r, type(e).__name__, e)
try:
    vmap(lambda x: x + torch.rand(2), randomness="bogus")(torch.ones(3, 2))
except Exception as e:
    print(type(e).__name__, e)
torch.manual_seed(0)
print(vmap(lambda x: x + torch.rand(2), randomness="same")(torch.zeros(3, 2)))
print(torch.rand(2))
torch.manual_seed(0)
print(torch.rand(2), torch.rand(2))
try:
    vmap(lambda x: x.normal_())(torch.ones(3, 2))
except Exception as e:
    print(type(e).__name__, e)
models = [torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(0.1)) for _ in range(3)]
params, buffers = stack_module_state(models)
try:
    vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, torch.ones(4, 2))
except RuntimeError as e:
    print(e)
models[0].eval()
print(vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, torch.ones(4, 2)).shape)
