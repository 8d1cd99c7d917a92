import torch

torch.manual_seed(2024)
x = torch.randn(8)
print(x)
print(x[torch.randperm(8)])
idx = torch.randint(0, 8, (3,))
print(idx, x[idx])
noise = torch.randn_like(x) * 0.1
print(noise)
mask = torch.rand(8) > 0.5
print(mask, x[mask])
w = torch.empty(2, 3).normal_(0, 0.01)
print(w)
print(torch.rand(2, 3).argmax(dim=1))
print(torch.randn(2, 2, dtype=torch.float64))
u = torch.zeros(3).uniform_()
print(u)
print(torch.randint(2, (10,)).float().mean())
gen = torch.Generator().manual_seed(3)
print(torch.randn(3, generator=gen), torch.rand(1, generator=gen))
print(torch.seed() > 0)
