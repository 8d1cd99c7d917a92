import torch

src = torch.arange(1, 11).reshape(2, 5)
index = torch.tensor([[0, 1, 2, 0]])
print(torch.zeros(3, 5, dtype=src.dtype).scatter_(0, index, src))
print(torch.zeros(3, 5).scatter(1, torch.tensor([[0], [2]]), 1.5))
print(torch.zeros(5).scatter_add(0, torch.tensor([0, 1, 0, 1, 4]), torch.ones(5)))
print(torch.zeros(3).index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([1.0, 2.0, 3.0])))
print(torch.zeros(2, 3).index_fill_(1, torch.tensor([0, 2]), -1.0))
print(torch.tensor([[1, 2], [3, 4]]).gather(1, torch.tensor([[0, 0], [1, 0]])))
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
g = w.gather(0, torch.tensor([2, 2, 0]))
g.sum().backward()
print(g, g.grad_fn, w.grad)
