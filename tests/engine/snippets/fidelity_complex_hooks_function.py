# Hooks, retain_grad, explicit grad_outputs and a custom Function on complex tensors.
import torch

z = torch.tensor([1 + 1j, 2j], requires_grad=True)
print(torch.autograd.grad(z * 2, z, torch.ones(2, dtype=torch.cfloat)))
print(torch.autograd.grad(z * 2, z, torch.ones(2, dtype=torch.cdouble)))
h = z.register_hook(lambda g: g * 1j)
(z * z).abs().sum().backward()
print(z.grad)
h.remove()
z.grad = None
y = z * 2
y.retain_grad()
(y.conj() * y).real.sum().backward()
print(y.grad, z.grad)
print(y.grad_fn.next_functions[0][0].variable is z)


class TimesTwoJ(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2j

    @staticmethod
    def backward(ctx, g):
        return g * -2j


z.grad = None
out = TimesTwoJ.apply(z)
print(out, out.grad_fn.name())
out.abs().sum().backward()
print(z.grad)
for go in (torch.ones(2), None):
    try:
        torch.autograd.grad(z * 2, z, go)
    except RuntimeError as e:
        print(e)
torch.autograd.grad(z.abs(), z, torch.ones(2, dtype=torch.cfloat))
