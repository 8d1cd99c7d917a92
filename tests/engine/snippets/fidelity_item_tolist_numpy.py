import numpy as np
import torch

x = torch.tensor([[1.5, 2.5], [3.5, 4.5]])
print(x.tolist(), x[0, 1].item(), x.sum().item())
print(torch.tensor(7).item(), torch.tensor([True]).item(), torch.tensor([3], dtype=torch.int32).tolist())
n = x.numpy()
print(type(n), n.dtype, n)
n[0, 0] = 100.0
print(x)
t = torch.from_numpy(np.array([1, 2, 3]))
print(t, t.dtype)
a = np.ones(3, dtype=np.float32)
ta = torch.as_tensor(a)
a += 1
print(ta)
print(torch.tensor(np.float64(2.5)), torch.tensor(np.arange(3)))
r = torch.ones(2, requires_grad=True)
try:
    r.numpy()
except RuntimeError as e:
    print(e)
print(r.detach().numpy(), r.sum().item())
try:
    torch.ones(2).item()
except RuntimeError as e:
    print(e)
print(float(torch.tensor(2.5)), int(torch.tensor(3.9)), bool(torch.tensor(0.0)))
print(len(x), x.numel(), x.dim(), x.ndim, x.size(), x.size(1), x.shape[0], x.nelement(), x.element_size())
print(list(x), [row.sum().item() for row in x])
