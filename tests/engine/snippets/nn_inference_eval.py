import torch
from torch import nn

model = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.5), nn.BatchNorm1d(2))
nn.init.eye_(model[0].weight)
nn.init.zeros_(model[0].bias)
x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
model.eval()
with torch.inference_mode():
    y = model(x)
print(y, y.requires_grad, y.is_inference())
with torch.no_grad():
    z = model(x)
print(z.requires_grad, z.grad_fn, z.is_inference())
try:
    y.requires_grad_()
except RuntimeError as e:
    print(e)


@torch.no_grad()
def evaluate(m, data):
    return m(data).sum()


r = evaluate(model, x)
print(r, r.requires_grad)
with torch.set_grad_enabled(False):
    print(model(x).requires_grad)
print(model(x).requires_grad, model(x).grad_fn.name())
print(model.training, [m.training for m in model])
