# Holomorphic functions of complex tensors and their gradients (g * conj(f'(z))).
import torch

z = torch.tensor([0.5 + 1j, -1 + 0.25j, 2 - 0.5j], requires_grad=True)
ops = {
    "exp": torch.exp,
    "log": torch.log,
    "sqrt": torch.sqrt,
    "rsqrt": torch.rsqrt,
    "sin": torch.sin,
    "cos": torch.cos,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "reciprocal": torch.reciprocal,
}
for name, fn in ops.items():
    out = fn(z)
    (g,) = torch.autograd.grad(torch.view_as_real(out).sum(), z)
    print(name, out, out.grad_fn.name())
    print("   grad", g)
chain = (z / (1 + 1j)).pow(2).exp().log().sqrt().sin().cos().tanh().sigmoid().reciprocal()
print(chain)
chain.abs().sum().backward()
print(z.grad)
print(torch.exp(torch.tensor([1j * 3.141592653589793])))
print(torch.tensor([1j]).sign())
