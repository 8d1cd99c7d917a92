import torch

x = torch.tensor([[1, 2], [3, 4]], dtype=torch.int32)
print(x.sum(), x.sum(dtype=torch.float32), x.prod(1), x.float().prod(), x.cumsum(0).dtype)
print(torch.tensor([1e20, 1.0, -1e20]).sum(), torch.tensor([1, 2], dtype=torch.uint8).sum().dtype)
print(torch.tensor([True, False, True]).prod(), torch.tensor([2.0, 3.0]).prod().grad_fn)
w = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)
w.prod().backward()
print(w.grad)
