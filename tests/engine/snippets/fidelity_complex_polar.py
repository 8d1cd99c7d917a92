# polar, abs, angle and sgn: not holomorphic, each with its own gradient.
import torch

r = torch.tensor([1.0, 2.0, 0.5], requires_grad=True)
theta = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
z = torch.polar(r, theta)
print(z, z.grad_fn.name())
g = torch.tensor([0.5 - 1j, 2 + 1j, -1j])
z.backward(g)
print(r.grad, theta.grad)
w = torch.tensor([1 + 1j, 2 - 1j, 0j, -3 + 0.5j], requires_grad=True)
print(w.abs(), w.angle(), torch.sgn(w))
print(w.abs().grad_fn.name(), w.angle().grad_fn.name(), w.sgn().grad_fn.name())
for fn in (torch.abs, torch.angle):
    (gw,) = torch.autograd.grad(fn(w), w, torch.tensor([1.0, -2.0, 1.0, 0.5]))
    print(fn.__name__, gw)
(gs,) = torch.autograd.grad(torch.sgn(w), w, torch.tensor([0.5 - 1j, 2 + 1j, 1 + 1j, -1j]))
print(gs)
print(torch.tensor([-1.0, 0.0, 2.0]).angle())
torch.polar(torch.ones(2), torch.ones(2, dtype=torch.float64))
