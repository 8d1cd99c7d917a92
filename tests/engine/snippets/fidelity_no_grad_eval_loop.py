import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Dropout(0.5), nn.Linear(5, 2))
x = torch.randn(6, 3)
model.train()
y1 = model(x)
print(y1.grad_fn, model[1].running_mean)
model.eval()
with torch.no_grad():
    y2 = model(x)
    y3 = model(x)
print(torch.equal(y2, y3), y2.requires_grad, y2)
print([m.training for m in model.modules()])
with torch.inference_mode():
    y4 = model(x)
print(y4.is_inference(), torch.allclose(y2, y4))
preds = y2.argmax(dim=1)
print(preds, (preds == torch.tensor([0, 1, 0, 1, 0, 1])).sum().item())
print(torch.softmax(y2, dim=1).max(dim=1))
