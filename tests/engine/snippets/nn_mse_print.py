import torch
from torch import nn

loss_fn = nn.MSELoss()
print(loss_fn)
pred = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
target = torch.tensor([1.5, 2.0, 2.0])
loss = loss_fn(pred, target)
print(loss)
print(loss.item(), f"{loss.item():.4f}", f"{loss:.3f}")
loss.backward()
print(pred.grad)
print(nn.MSELoss(reduction="sum")(pred, target))
print(nn.MSELoss(reduction="none")(pred, target))
print(nn.L1Loss()(pred, target))
print(nn.SmoothL1Loss()(pred, target))
print(nn.HuberLoss(delta=0.5)(pred, target))
print(nn.BCELoss()(torch.tensor([0.9, 0.2]), torch.tensor([1.0, 0.0])))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(torch.tensor([0.5, -1.0]), torch.tensor([1.0, 0.0])))
with torch.no_grad():
    print(loss_fn(pred, target))
import warnings
print(nn.MSELoss()(torch.ones(2, 1), torch.zeros(2)))
