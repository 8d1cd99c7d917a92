import torch

i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 1.5, 2.5])
d = torch.tensor([1.0], dtype=torch.float64)
b = torch.tensor([True, False, True])
print((i + f).dtype, (i * 2.5).dtype, (i / 2).dtype, (i // 2).dtype, (f + d).dtype)
print((b + b).dtype, (b + 1).dtype, (b * 1.0).dtype, (i + True).dtype)
print(torch.tensor(1, dtype=torch.int32) + torch.tensor([1], dtype=torch.int64))
print((torch.ones(2, dtype=torch.int8) + 300).dtype, (torch.ones(2, dtype=torch.uint8) - 2))
print(torch.tensor([1.0]) + torch.tensor(2.0, dtype=torch.float64))
print(torch.result_type(i, 1.0), torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float32, torch.int32))
print(i.float().dtype, i.to(torch.float64), f.int(), f.long(), f.to(torch.bool), (f > 1).sum())
print(torch.tensor([1, 2]) / torch.tensor([2, 4]), torch.tensor([7, -7]) // 2, torch.tensor([7, -7]) % 3)
print(torch.tensor(3) ** 2, torch.tensor(2) ** -1.0, torch.tensor([4]) ** 0.5)
print(torch.get_default_dtype(), torch.tensor(1.0).dtype, torch.tensor(1).dtype, torch.tensor(True).dtype)
print(i.mean(dtype=torch.float32), i.sum().dtype, b.sum(), f.half().dtype, f.type(torch.IntTensor))
try:
    i.mean()
except RuntimeError as e:
    print(e)
try:
    i.requires_grad_()
except RuntimeError as e:
    print(e)
