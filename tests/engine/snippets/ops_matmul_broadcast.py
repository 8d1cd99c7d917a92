import torch

print(torch.matmul(torch.ones(3), torch.ones(3)).size())
print(torch.matmul(torch.ones(3, 4), torch.ones(4)).size())
print(torch.matmul(torch.ones(10, 3, 4), torch.ones(4)).size())
print(torch.matmul(torch.ones(10, 3, 4), torch.ones(10, 4, 5)).size())
print(torch.matmul(torch.ones(10, 3, 4), torch.ones(4, 5)).size())
print(torch.matmul(torch.ones(4), torch.ones(2, 4, 5)).size())
try:
    torch.matmul(torch.ones(2, 3, 4), torch.ones(3, 4, 5))
except RuntimeError as e:
    print(e)
