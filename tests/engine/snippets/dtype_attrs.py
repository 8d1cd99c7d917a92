import torch

print(torch.float32, torch.float64, torch.int64, torch.bool, torch.float, torch.double, torch.long)
print(torch.float32.is_floating_point, torch.int32.is_floating_point, torch.float32.itemsize)
x = torch.tensor([1.5, 2.5])
print(x.double().dtype, x.long(), x.int(), x.bool(), x.half().dtype)
print(x.to(torch.float64), x.type(torch.int64))
print(x.element_size(), x.nelement(), x.ndim, x.dim(), x.numel())
print(x.is_floating_point(), torch.is_tensor(x), torch.is_floating_point(x))
print(x.device, x.is_leaf, x.type())
print(torch.tensor([1, 2]).type(), torch.ones(2, dtype=torch.bool).type())
