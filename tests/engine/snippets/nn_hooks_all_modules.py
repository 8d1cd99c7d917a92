import torch
from torch import nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Sequential(nn.Linear(4, 2), nn.Tanh()))
for i, p in enumerate(model.parameters()):
    nn.init.constant_(p, 0.1 * (i + 1))
handles = []
for name, module in model.named_modules():
    if name == "":
        continue

    def hook(mod, inp, out, name=name):
        print(f"{name:>4} {type(mod).__name__:<10} in={tuple(inp[0].shape)} out={tuple(out.shape)} mean={out.mean().item():.4f}")

    handles.append(module.register_forward_hook(hook))
y = model(torch.ones(2, 3))
print(y)
for h in handles:
    h.remove()
print(len(model._forward_hooks), len(model[0]._forward_hooks))
grads = {}
for name, p in model.named_parameters():
    p.register_hook(lambda g, name=name: grads.__setitem__(name, g.norm().item()))
model(torch.ones(2, 3)).sum().backward()
for k in sorted(grads):
    print(k, round(grads[k], 5))
