import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)
X = torch.randn(8, 3)
y = (X.sum(dim=1, keepdim=True) > 0).float()
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for step in range(5):
    opt.zero_grad()
    logits = model(X)
    loss = F.binary_cross_entropy_with_logits(logits, y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(model[0].weight.grad)
with torch.no_grad():
    print((torch.sigmoid(model(X)) > 0.5).float().eq(y).float().mean())
