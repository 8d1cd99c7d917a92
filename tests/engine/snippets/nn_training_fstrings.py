import torch
from torch import nn

torch.set_printoptions(precision=3)
X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])
model = nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 1), nn.Sigmoid())
with torch.no_grad():
    model[0].weight.copy_(torch.tensor([[1.0, -1.0], [-1.0, 1.0], [0.5, 0.5], [1.0, 1.0]]))
    model[0].bias.copy_(torch.tensor([0.0, 0.0, -0.5, -1.0]))
    model[2].weight.copy_(torch.tensor([[1.0, 1.0, -1.0, -0.5]]))
    model[2].bias.fill_(0.1)
loss_fn = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
history = []
for epoch in range(1, 41):
    opt.zero_grad()
    pred = model(X)
    loss = loss_fn(pred, Y)
    loss.backward()
    opt.step()
    history.append(loss.item())
    if epoch % 10 == 0:
        acc = ((pred > 0.5).float() == Y).float().mean()
        print(f"epoch {epoch:3d} | loss {loss.item():.4f} | acc {acc:.2f} | {acc.item():.0%}")
print(f"{history[0]:.3f} -> {history[-1]:.3f}")
print(model(X).detach().round(decimals=2).squeeze())
print(pred.grad_fn, loss)
torch.set_printoptions(profile="default")
