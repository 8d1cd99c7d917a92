import torch

print(torch.tensor([1e38]) * 10, torch.tensor([1e-45]) / 2, torch.tensor([-0.0]).abs())
print(torch.tensor(float("nan")) == torch.tensor(float("nan")), torch.tensor([1.0, float("nan")]).max())
print(torch.tensor([0.1 + 0.2]), torch.tensor([0.1], dtype=torch.float64) + 0.2)
print(torch.tensor([2**31], dtype=torch.int64) * 2, torch.tensor([127], dtype=torch.int8) + 1)
print(torch.tensor([1, 2, 3]) / 0, torch.tensor([1.0, 0.0, -1.0]) / 0, torch.tensor([0.0]).log())
try:
    torch.tensor([1, 2]) // 0
except RuntimeError as e:
    print(e)
print(torch.tensor([3.0]).pow(0.5), torch.tensor([-8.0]).pow(1 / 3), torch.tensor([4]).sqrt())
print(torch.tensor([1.5, 2.5, -0.5, 0.5]).round(), torch.tensor([1.2345]).round(decimals=2))
print(torch.exp(torch.tensor([88.0, 89.0, -104.0])), torch.sigmoid(torch.tensor([-100.0, 100.0])))
print(torch.log1p(torch.tensor([1e-8])), torch.expm1(torch.tensor([1e-8])), torch.tanh(torch.tensor([20.0])))
x = torch.tensor([0.0], requires_grad=True)
torch.sqrt(x).backward()
print(x.grad)
x.grad = None
(x.abs()).backward()
print(x.grad)
x.grad = None
torch.norm(x).backward()
print(x.grad)
