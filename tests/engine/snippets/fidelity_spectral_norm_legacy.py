import torch
from torch import nn
from torch.nn.utils import spectral_norm, remove_spectral_norm
torch.manual_seed(0)
m = spectral_norm(nn.Linear(20, 40))
print(m)
print(m.weight_u.size(), m.weight_v.size(), m.weight_orig.shape, type(m.weight))
print(sorted(n for n, _ in m.named_parameters()), sorted(n for n, _ in m.named_buffers()))
x = torch.randn(3, 20)
y = m(x)
print(y.grad_fn, m.weight.grad_fn)
print(torch.linalg.matrix_norm(m.weight.detach(), 2))
for _ in range(5):
    m(x)
print(torch.linalg.matrix_norm(m.weight.detach(), 2), m.weight_u[:4])
y.sum().backward()
print(m.weight_orig.grad.shape, m.weight_orig.grad[0, :4])
sd = m.state_dict()
print(list(sd.keys()), sd._metadata)
m2 = spectral_norm(nn.Linear(20, 40))
print(m2.load_state_dict(sd))
print(torch.equal(m2.weight_u, m.weight_u))
m.eval()
u0 = m.weight_u.clone()
m(x)
print(torch.equal(u0, m.weight_u))
remove_spectral_norm(m)
print(m, sorted(n for n, _ in m.named_parameters()), list(m.state_dict().keys()))
try:
    remove_spectral_norm(m)
except ValueError as e:
    print(e)
c = spectral_norm(nn.Conv2d(3, 8, 3), n_power_iterations=2)
print(c.weight_u.shape, c.weight_v.shape)
print(c(torch.randn(1, 3, 5, 5)).shape)
ct = spectral_norm(nn.ConvTranspose2d(3, 8, 3))
print(ct.weight_u.shape, ct.weight_v.shape)
try:
    spectral_norm(c)
except RuntimeError as e:
    print(e)
# a GAN discriminator as tutorials write it
D = nn.Sequential(spectral_norm(nn.Conv2d(1, 4, 4, 2, 1)), nn.LeakyReLU(0.2),
                  nn.Flatten(), spectral_norm(nn.Linear(4 * 4 * 4, 1)))
out = D(torch.randn(2, 1, 8, 8))
out.mean().backward()
print(out, D[0].weight_orig.grad.abs().sum())
v = torch.ones(3)
print(nn.functional.normalize(torch.tensor([3., 4., 0.]), dim=0, out=v), v)
