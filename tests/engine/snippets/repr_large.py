import torch

print(torch.arange(2000))
print(torch.arange(1200.0))
print(torch.arange(3000).reshape(30, 100))
print(torch.ones(4, 300))
print(torch.arange(30.0) / 7)
print(torch.arange(100.0).reshape(10, 10))
print(torch.arange(24).reshape(2, 3, 4))
