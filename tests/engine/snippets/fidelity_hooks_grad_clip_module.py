import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
for p in model.parameters():
    p.register_hook(lambda grad: torch.clamp(grad, -0.1, 0.1))
activations = {}


def save_act(name):
    def hook(module, inp, out):
        activations[name] = out.detach()
    return hook


for name, layer in model.named_children():
    layer.register_forward_hook(save_act(name))
out = model(torch.randn(2, 3))
print({k: v.shape for k, v in activations.items()})
print(activations["1"])
out.sum().backward()
print(model[0].weight.grad)
grads = []
model[2].register_full_backward_pre_hook(lambda m, go: grads.append(go[0].shape))
h = model[0].register_full_backward_hook(lambda m, gi, go: print("gi", gi, "go", go[0].shape))
model(torch.ones(1, 3)).backward()
print(grads)
h.remove()
x = torch.ones(1, 3, requires_grad=True)
model(x).backward()
print(x.grad)
