import torch
import torch.nn as nn

torch.manual_seed(2)
G = nn.Linear(2, 2)
D = nn.Sequential(nn.Linear(2, 1), nn.Sigmoid())
opt_g = torch.optim.SGD(G.parameters(), lr=0.1)
opt_d = torch.optim.SGD(D.parameters(), lr=0.1)
bce = nn.BCELoss()
real = torch.randn(4, 2) + 2
for step in range(3):
    z = torch.randn(4, 2)
    fake = G(z)
    d_loss = bce(D(real), torch.ones(4, 1)) + bce(D(fake.detach()), torch.zeros(4, 1))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()
    g_loss = bce(D(fake), torch.ones(4, 1))
    opt_g.zero_grad()
    g_loss.backward()
    opt_g.step()
    print(step, round(d_loss.item(), 4), round(g_loss.item(), 4))
print(G.weight.grad is not None, D[0].weight.grad)
