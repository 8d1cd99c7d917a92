import torch

x = torch.tensor([1.0, 5.0, 3.0, 4.0, 2.0])
print(torch.topk(x, 2))
print(x.topk(2, largest=False), x.topk(3).indices, x.topk(1, sorted=True).values)
print(x.sort(), x.sort(descending=True).values, x.argsort(), torch.argsort(x, descending=True))
v, i = torch.sort(torch.tensor([[3, 1], [2, 4]]), dim=0)
print(v, i, torch.msort(torch.tensor([[3, 1], [2, 4]])))
print(x.kthvalue(2), torch.tensor([[1, 2, 2], [4, 4, 1]]).mode())
w = torch.tensor([1.0, 5.0, 3.0], requires_grad=True)
w.topk(2).values.sum().backward()
print(w.grad, w.topk(2).values.grad_fn, w.sort().values.grad_fn)
