import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-1, 1, 24).reshape(2, 3, 2, 2).requires_grad_()
a = nn.AlphaDropout(0.2)
print(a, a(x)[0, 0], a(x).grad_fn.name())
fa = nn.FeatureAlphaDropout(0.5)
print(fa, fa(x)[:, :, 0, 0])
d3 = nn.Dropout3d(0.5)
v = torch.ones(2, 3, 1, 2, 2)
print(d3, d3(v)[:, :, 0, 0, 0])
d3.eval()
print(d3(v).equal(v), a.eval()(x).equal(x))
r = nn.RReLU(0.1, 0.3)
print(r)
y = r(x)
print(y[0, 0], y.grad_fn.name())
y.sum().backward()
print(x.grad[0, 0])
r.eval()
print(r(x)[0, 0], F.rrelu(torch.tensor([-2.0, 3.0])))
g = F.gumbel_softmax(torch.tensor([[1.0, 2.0, 3.0]]), tau=0.5, hard=True)
print(g, g.grad_fn)
try:
    F.alpha_dropout(x, 1.5)
except ValueError as e:
    print(e)
try:
    F.rrelu(x, 0.5, 0.1)
except RuntimeError as e:
    print(e)
