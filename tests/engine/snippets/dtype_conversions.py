import torch

x = torch.tensor([1.7, -2.3, 0.0])
print(x.int(), x.long(), x.bool(), x.double(), x.half(), x.short())
print(x.to(torch.int64), x.to(dtype=torch.float64), x.type(torch.int32), x.type())
print(torch.tensor([1, 2]).type(), torch.tensor([True]).type(), x.double().type())
print(x.float() is x, x.to(torch.float32) is x, x.type_as(torch.tensor([1])))
print(torch.tensor([0.1]).dtype, torch.tensor([1]).dtype, torch.tensor(True).dtype)
print(x.dtype.is_floating_point, torch.int64.is_floating_point, torch.float16.itemsize)
print(torch.float32 == torch.float, torch.int64 == torch.long, torch.double, torch.half)
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]).dtype, torch.ones(1).dtype, torch.arange(3.0).dtype)
torch.set_default_dtype(torch.float32)
print(torch.get_default_dtype())
