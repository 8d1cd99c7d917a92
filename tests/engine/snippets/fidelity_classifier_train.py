import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
n = 60
X = torch.randn(n, 2)
y = (X[:, 0] * X[:, 1] > 0).long()


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(2, 16)
        self.l2 = nn.Linear(16, 2)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.l2(self.drop(F.relu(self.l1(x))))


model = MLP()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(30):
    model.train()
    perm = torch.randperm(n)
    for i in range(0, n, 20):
        idx = perm[i:i + 20]
        loss = F.cross_entropy(model(X[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    if epoch % 10 == 0:
        model.eval()
        with torch.no_grad():
            acc = (model(X).argmax(dim=1) == y).float().mean()
        print(epoch, round(loss.item(), 4), acc.item())
print(model.l1.bias)
