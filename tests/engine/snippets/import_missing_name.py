import torch

for mod in ["torch", "torch.nn", "torch.nn.functional", "torch.linalg", "torch.optim", "torch.fft"]:
    try:
        exec(f"from {mod} import no_such_name")
    except ImportError as e:
        print(type(e).__name__, e.name, str(e).split(" (")[0])
try:
    from torch.nn.utils import clip_grad_norm_, clip_grad_nrm_
except ImportError as e:
    print(e.name, str(e).split(" (")[0])
try:
    torch.nn.no_such_name
except AttributeError as e:
    print(e)
print(hasattr(torch.optim, "no_such_name"), getattr(torch.fft, "no_such_name", "default"))
from torch.nn import Linear, functional as F

print(Linear, F.relu(torch.tensor([-1.0, 2.0])))
