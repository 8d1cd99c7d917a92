import torch

print(torch.arange(24).reshape(2, 3, 4))
print(torch.arange(24.0).reshape(2, 3, 4) / 7)
print(torch.arange(2000))
print(torch.arange(2000.0).reshape(40, 50))
print(torch.ones(3, 1000))
print(torch.zeros(2, 1, 2, 1))
print(torch.arange(1200).reshape(2, 3, 200))
