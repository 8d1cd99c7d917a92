# Real parameters feeding a complex computation get real gradients (the real part).
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.to(torch.cfloat)
print(y, y.grad_fn.name())
(y * (1 + 1j)).abs().sum().backward()
print(x.grad)
x.grad = None
w = x * (2 + 3j)
print(w, w.grad_fn.name())
torch.view_as_real(w).sum().backward()
print(x.grad, x.grad.dtype)
amp = torch.tensor([1.0, 0.5], requires_grad=True)
phase = torch.tensor([0.3, -1.2], requires_grad=True)
signal = amp * torch.exp(1j * phase)
energy = (signal * signal.conj()).real.sum() + signal.imag.sum()
energy.backward()
print(signal, energy)
print(amp.grad, phase.grad)
c = torch.tensor([1 + 1j], requires_grad=True)
print(c.to(torch.float32))
torch.ones(2, dtype=torch.int64).requires_grad_()
