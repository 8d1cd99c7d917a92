import torch
import torch.nn as nn
import torch.nn.functional as F

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -0.25]]))
    lin.bias.fill_(0.1)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
t = torch.tensor([[1.0], [0.0]])
out = lin(x)
print(out)
loss = F.mse_loss(out, t)
print(loss)
loss.backward()
print(lin.weight.grad, lin.bias.grad)
print(lin)
print(loss.grad_fn.name(), out.grad_fn.name())
