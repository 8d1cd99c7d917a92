# conj is lazy (is_conj), conj_physical is not; both have gradients.
import torch

a = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
b = a.conj()
print(b, b.is_conj(), b.grad_fn.name())
print(b.resolve_conj().is_conj(), b.resolve_conj().grad_fn.name())
p = a.conj_physical()
print(p, p.is_conj(), p.grad_fn.name())
print(torch.tensor([1.0]).conj().is_conj(), torch.tensor([1.0]).conj_physical())
print(b.imag, (b + 1).is_conj())
loss = (a * b).real.sum()
print(loss)
loss.backward()
print(a.grad)
a.grad = None
torch.view_as_real(p * (2 - 1j)).sum().backward()
print(a.grad)
m = torch.tensor([[1 + 1j, 2], [3j, 4 - 1j]])
print(m.mH, m.adjoint().is_conj(), m.H)
try:
    torch.ones(2).mH
except RuntimeError as e:
    print(e)
torch.view_as_real(b)
