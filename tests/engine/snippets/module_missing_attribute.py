# a missing attribute of a torch module: the AttributeError names the torch module, with name and obj
import torch
import torch.nn.functional as F

for mod in (torch, torch.nn, torch.nn.utils, torch.linalg, F, torch.optim, torch.autograd):
    try:
        mod.nonexistent
    except AttributeError as e:
        print(e, e.name, e.obj is mod)
print(type(torch.nn), hasattr(torch.nn.utils, "nonexistent"), getattr(torch.fft, "nope", None))
