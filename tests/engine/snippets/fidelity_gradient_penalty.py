import torch
import torch.nn as nn

torch.manual_seed(0)
D = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
real = torch.randn(4, 2)
fake = torch.randn(4, 2)
alpha = torch.rand(4, 1)
inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(inter)
grads = torch.autograd.grad(outputs=out, inputs=inter, grad_outputs=torch.ones_like(out),
                            create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
print(gp, gp.grad_fn)
gp.backward()
print(D[0].weight.grad)
print(D[2].bias.grad)
