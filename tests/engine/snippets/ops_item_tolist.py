import torch

print(torch.tensor([5.0]).item(), torch.tensor([[5]]).item(), torch.tensor(2.5).item())
print(int(torch.tensor(3.7)), float(torch.tensor(2)), bool(torch.tensor([1])))
print(torch.tensor([1.5]).tolist(), torch.tensor(1.5).tolist(), torch.tensor([[1, 2]]).tolist())
print(torch.tensor([True, False]).tolist(), torch.tensor([0.1, 0.2]).tolist())
x = torch.tensor([[1, 2], [3, 4]])
print(x.numel(), x.nelement(), x.ndim, x.dim(), len(x), x.element_size())
for row in x:
    print(row, row.shape)
print(list(x.shape), x.size(), x.size(0), x.size(-1), x.shape[1:])
try:
    torch.tensor([1, 2]).item()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    bool(torch.tensor([1, 2]))
except RuntimeError as e:
    print("RuntimeError:", e)
