# gradcheck and gradgradcheck on complex functions (double precision complex inputs).
import torch

z = torch.tensor([1 + 2j, 0.5 - 1j], dtype=torch.cdouble, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: (t * t.conj() + t.exp()).abs(), (z,)))
print(torch.autograd.gradcheck(lambda t: t.sin() * 2j, (z,)))
print(torch.autograd.gradgradcheck(lambda t: (t * t).abs(), (z,)))
x = torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(lambda t: torch.view_as_real(t * (1 + 1j)), (x,)))
w = torch.tensor([[1 + 1j, 2], [0.5j, 1 - 1j]], dtype=torch.cdouble, requires_grad=True)
v = w.detach().clone().requires_grad_()
print(torch.autograd.gradcheck(lambda a, b: (a @ b, torch.vdot(b[0], a[1])), (w, v)))
print(torch.autograd.gradgradcheck(lambda t: t.exp() * t, (z,)))
torch.set_default_dtype(torch.float64)
print(torch.tensor([1j, 2]), torch.tensor(1j).dtype, torch.ones(1) * 1j)
print(torch.empty(0, dtype=torch.cdouble), torch.randn(1, dtype=torch.cfloat).dtype)
torch.set_default_dtype(torch.float32)
torch.autograd.gradcheck(lambda t: t * 2, (torch.tensor([1j], dtype=torch.cdouble),))
