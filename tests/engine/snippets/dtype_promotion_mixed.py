import torch

print(torch.tensor([1, 2]) + torch.tensor([1.5, 2.5]), torch.tensor([1, 2]) * 2.5)
print((torch.tensor([1, 2], dtype=torch.int32) + torch.tensor(1, dtype=torch.int64)).dtype)
print((torch.tensor([1, 2], dtype=torch.int32) + torch.tensor([1], dtype=torch.int64)).dtype)
print((torch.tensor([1.0], dtype=torch.float16) + torch.tensor(1.0, dtype=torch.float64)).dtype)
print((torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0], dtype=torch.float64)).dtype)
print((torch.tensor([1], dtype=torch.uint8) + torch.tensor([1], dtype=torch.int8)).dtype)
print(torch.tensor([1, 2]) / 2, (torch.tensor([1, 2]) / 2).dtype, (torch.tensor([True]) / 2).dtype)
print(torch.result_type(torch.tensor([1, 2]), 1.0), torch.promote_types(torch.int32, torch.float16))
print(torch.can_cast(torch.float64, torch.int32), torch.can_cast(torch.int64, torch.float32))
print(torch.cat([torch.tensor([1, 2]), torch.tensor([1.5])]))
print(
    torch.cat([torch.tensor([1, 2]), torch.tensor([True])]),
    torch.stack([torch.tensor([1, 2]), torch.tensor([1.5, 2.0])]),
)
print(torch.cat([torch.tensor([1.0], dtype=torch.float64), torch.tensor([2.0])]).dtype)
print(torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5))
x = torch.tensor([1.0, 2.0])
x += torch.tensor([1, 2])
print(x)
x.add_(torch.tensor([1.5, 1.5], dtype=torch.float64))
print(x, x.dtype)
y = torch.tensor([1, 2])
try:
    y += 1.5
except RuntimeError as e:
    print(e)
