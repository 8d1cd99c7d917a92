import torch

tensor = torch.ones(4, 4)
tensor[:, 1] = 0
y3 = torch.rand_like(tensor)
torch.matmul(tensor, tensor.T, out=y3)
z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)
print(y3, z3)
out = torch.zeros(2)
r = torch.add(torch.ones(2), 1, out=out)
print(r, out, r is out)
print(torch.add(5, 5), torch.mul(2, torch.tensor([1, 2])))
big = torch.zeros(3)
torch.mul(torch.ones(2), 2, out=big)
print(big)
try:
    torch.mul(torch.ones(2), 2, out=torch.zeros(2, dtype=torch.int64))
except RuntimeError as e:
    print(e)
try:
    torch.mul(torch.ones(2, requires_grad=True), 2, out=torch.zeros(2))
except RuntimeError as e:
    print(e)
