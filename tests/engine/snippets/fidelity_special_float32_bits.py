import torch

# float32 results compared bit for bit (as int32 views), not only as printed digits
x = torch.tensor([0.1, 0.5, 1.3, 2.7, 7.9, 31.0, -0.6, -3.3])
print(torch.digamma(x).view(torch.int32))
print(torch.polygamma(1, x).view(torch.int32))
print(torch.lgamma(x[:6]).view(torch.int32))
u = torch.tensor([-0.9, -0.3, 0.05, 0.6, 0.99])
print(torch.erfinv(u).view(torch.int32))
print(torch.pdist(torch.tensor([[0.1, 0.2], [1.5, -0.7], [2.25, 3.0]])).view(torch.int32))
b = torch.tensor([-9.5, -2.25, 0.0, 0.75, 3.5, 8.0, 12.5])
print(torch.special.i0(b).view(torch.int32), torch.special.i0e(b).view(torch.int32))
print(torch.special.i1(b).view(torch.int32), torch.special.i1e(b).view(torch.int32))
p = torch.tensor([1e-6, 0.01, 0.2, 0.5, 0.77, 0.95, 0.9999])
print(torch.special.ndtri(p).view(torch.int32), torch.special.entr(p).view(torch.int32))
