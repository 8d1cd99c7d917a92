import torch

x = torch.arange(24.0).reshape(2, 3, 4)
print(x.sum(dim=(0, 1)), x.sum((0, 2), keepdim=True), x.sum(-1), x.mean(dim=[1, 2]))
print(x.sum(), x.mean(), x.prod(dim=0)[0], x.std(dim=2), x.var(1, unbiased=False))
print(x.std(correction=0), x.amax(dim=(1, 2)), x.amin(0), x.logsumexp(dim=2))
print(x.max(), x.min(dim=1), x.argmax(), x.argmax(dim=1), x.argmin(2, keepdim=True))
print(x.norm(), x.norm(dim=2), x.norm(p=1), torch.tensor([3.0, 4.0]).norm(p=1))
print(x.cumsum(dim=2)[0], x.cumprod(0)[1, 0], x.median(), x.median(dim=2))
print(torch.tensor([1, 2, 3]).sum().dtype, torch.tensor([1, 2], dtype=torch.int32).sum().dtype)
print(torch.tensor([True, True, False]).sum(), torch.tensor([1, 2, 3]).prod())
print(torch.tensor([1, 2, 3]).mean(dtype=torch.float32), torch.tensor([1, 2, 3]).float().mean())
