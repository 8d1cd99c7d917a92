import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.linspace(-1, 1, p.numel()).reshape(p.shape))
activations = {}


def get_activation(name):
    def hook(model, input, output):
        activations[name] = output.detach()
    return hook


h1 = model[0].register_forward_hook(get_activation("fc1"))
h2 = model[1].register_forward_hook(get_activation("relu"))


def pre(module, args):
    print("pre", type(module).__name__, [a.shape for a in args])
    return (args[0] * 2,)


h3 = model[2].register_forward_pre_hook(pre)
out = model(torch.tensor([[1.0, 2.0]]))
print(out)
print(activations["fc1"], activations["relu"])
print(type(h1).__name__)
h1.remove()
h2.remove()
h3.remove()
activations.clear()
print(model(torch.tensor([[1.0, 2.0]])), activations)


def replace(module, inp, out):
    return out + 100


with model[2].register_forward_hook(replace):
    print(model(torch.tensor([[1.0, 2.0]])))
print(model(torch.tensor([[1.0, 2.0]])))


def kw_hook(module, args, kwargs, output):
    print("kw", sorted(kwargs), output.shape)


model[0].register_forward_hook(kw_hook, with_kwargs=True)
model(torch.tensor([[0.0, 0.0]]))
