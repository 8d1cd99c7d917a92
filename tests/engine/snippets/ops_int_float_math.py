import torch

i = torch.tensor([1, 4, 9])
print(i.sqrt(), i.exp(), torch.log(i), i.sin().dtype, i.float().sqrt(), i.sigmoid())
print(i**2, i**0.5, i.pow(-1.0), 2.0**i, i * 0.5, i / i)
print(
    torch.abs(torch.tensor([-3, 3])), torch.tensor([-3, 3]).sign(), torch.tensor([-2.5, 2.5]).abs()
)
print(torch.exp(torch.tensor([0.0, 1.0, 2.0])), torch.log(torch.tensor([1.0, 0.0, -1.0])))
print(
    torch.sqrt(torch.tensor([4.0, -1.0])),
    torch.rsqrt(torch.tensor([4.0, 0.0])),
    torch.reciprocal(torch.tensor([2.0, 0.0])),
)
print(torch.tensor([1, 2]) ** torch.tensor([2, 3]))
try:
    torch.tensor([2]) ** -1
except RuntimeError as e:
    print(e)
