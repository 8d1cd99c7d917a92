import torch

x = torch.arange(24).reshape(2, 3, 4)
print(x.permute(2, 0, 1).shape, torch.permute(x, (1, 0, 2)).stride(), x.transpose(0, 2).shape)
print(x.mT.shape, x.swapdims(1, 2).shape, x.movedim(0, 2).shape, x[0].T, x[0].t().is_contiguous())
w = torch.arange(6.0).reshape(2, 3).requires_grad_()
y = w.permute(1, 0) * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
y.sum().backward()
print(y.grad_fn.next_functions, w.grad)
