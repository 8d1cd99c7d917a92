# view_as_real / view_as_complex and the writable .real / .imag views.
import torch

x = torch.randn(4, 2)
x = torch.arange(8.0).reshape(4, 2)
z = torch.view_as_complex(x)
print(z)
print(torch.view_as_real(z))
z.real[0] = 100.0
print(x[0])
z.imag.mul_(-1)
print(z)
c = torch.zeros(2, dtype=torch.cfloat)
c.real = torch.tensor([1.0, 2.0])
c.imag.fill_(5)
print(c)
a = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
r = torch.view_as_real(a)
print(r, r.grad_fn.name(), r.grad_fn.next_functions[0][0].name())
back = torch.view_as_complex(r)
print(back.grad_fn.name(), back.grad_fn.next_functions[0][0].name())
print(a.real, a.real.grad_fn.name(), a.real.grad_fn.next_functions[0][0].name())
(a.real * 2 + a.imag * 3).sum().backward()
print(a.grad)
print(torch.view_as_complex(torch.ones(3, 4)[:, :2]))
for bad in (torch.ones(2, 3).t(), torch.ones(3, 3)[:, 1:], torch.ones(3, 2, dtype=torch.int64)):
    try:
        torch.view_as_complex(bad)
    except RuntimeError as e:
        print(e)
print(torch.tensor([1.0]).real)
try:
    torch.tensor([1.0]).imag
except RuntimeError as e:
    print(e)
torch.view_as_complex(torch.ones(3))
