import torch

x = torch.tensor([2, 1, 2, 1, 3])
print(x.sort(stable=True), x.argsort(stable=True), x.sort(descending=True, stable=True).indices)
print(torch.tensor([[3.0, 1.0], [1.0, 3.0]]).max(dim=1), torch.tensor([1.0, 3.0, 3.0]).argmax())
print(torch.tensor([3.0, 1.0, 1.0]).argmin(), torch.tensor([1, 1, 1]).max(0))
w = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
w.max().backward()
print(w.grad)
