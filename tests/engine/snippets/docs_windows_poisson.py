import torch

# window functions as the docs and spectrogram code call them
print(torch.hann_window(8))
print(torch.hann_window(8, periodic=False))
print(torch.hamming_window(6, dtype=torch.float64))
print(torch.blackman_window(5))
print(torch.bartlett_window(7, False))
print(torch.kaiser_window(6, True, 5.0))
w = torch.hann_window(4, requires_grad=True)
print(w.requires_grad, w.is_leaf, w.grad_fn)
frames = torch.arange(16.0).view(4, 4)
print((frames * torch.hann_window(4)).sum(-1))

# torch.poisson's docs: rates between 0 and 5 (seeded, so PyTorch's own draws)
torch.manual_seed(0)
rates = torch.rand(4, 4) * 5
print(torch.poisson(rates))
r = torch.tensor([1.0, 20.0], requires_grad=True)
p = torch.poisson(r)
p.sum().backward()
print(p.grad_fn, r.grad)

# Tensor.apply_: a Python function on each element, in place, CPU only
t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(t.apply_(lambda v: v**2), t._version)
try:
    torch.ones(2, requires_grad=True).apply_(lambda v: v)
except RuntimeError as e:
    print("RuntimeError:", e)
