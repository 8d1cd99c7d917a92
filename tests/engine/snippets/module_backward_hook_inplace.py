import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(inplace=True))
model[0].register_full_backward_hook(lambda m, gi, go: print("hook", type(m).__name__))
x = torch.randn(2, 3, requires_grad=True)
try:
    out = model(x)
    print(out.grad_fn)
except RuntimeError as e:
    print(e)

lin = nn.Linear(3, 3)
lin.register_full_backward_hook(lambda m, gi, go: None)
y = lin(x)
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())
try:
    y.add_(1)
except RuntimeError as e:
    print(e)
z = lin(x)
v = z.view(6)
print(v.grad_fn.name(), z._is_view())
try:
    torch.relu_(z)
except RuntimeError as e:
    print(e)

# full backward pre hook alone
lin2 = nn.Linear(3, 3)
lin2.register_full_backward_pre_hook(lambda m, go: print("pre"))
w = lin2(x)
print(w.grad_fn.name())
try:
    w.mul_(2)
except RuntimeError as e:
    print(e)
