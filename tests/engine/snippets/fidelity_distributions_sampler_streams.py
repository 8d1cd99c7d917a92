import torch
from torch.distributions import Beta, Binomial, Dirichlet, Gamma

# many draws in a row: every rejection loop must consume PyTorch's stream exactly
torch.set_printoptions(precision=7, threshold=10000, linewidth=120)
for dtype in (torch.float32, torch.float64):
    torch.manual_seed(1)
    r = torch.rand(120, dtype=dtype)
    a = (r * r * 40 + 1e-3).requires_grad_()  # from 0.001 to 40 (products round alike everywhere)
    x = Gamma(a, 1.0).rsample()
    x.sum().backward()
    print(x, a.grad)
    c = a.detach()[:60].reshape(20, 3).requires_grad_()
    y = Dirichlet(c).rsample()
    (y * torch.tensor([1.0, -1.0, 0.5], dtype=dtype)).sum().backward()
    print(y, c.grad)
    print(Beta(c.detach()[:, 0], c.detach()[:, 1]).sample((2,)))
    n = torch.floor(torch.rand(80, dtype=dtype) * 200)
    p = torch.rand(80, dtype=dtype)
    print(Binomial(n, p).sample())
print(torch.rand(2))
