import torch

a = torch.tensor([-7, 7, -8, 8])
print(a // 2, a % 3, a // -3, a % -3)
print(torch.tensor([-7.0, 7.0]) // 2, torch.tensor([-7.0, 7.0]) % -3)
print(torch.div(a, 2, rounding_mode="floor"), torch.div(a, 2, rounding_mode="trunc"), a / 2)
print(torch.remainder(a, 3), torch.fmod(a, 3), torch.fmod(torch.tensor([-7.5, 7.5]), 2))
print(torch.floor_divide(torch.tensor([5.0, -5.0]), 2), 7 // torch.tensor([2, -2]))
print(-7 % torch.tensor([3]), torch.tensor([5.5]) % 2, divmod(7, 2))
print(torch.true_divide(torch.tensor([7, -7]), 2), torch.divide(torch.tensor([1]), 3))
