# Arithmetic between complex tensors, real tensors and Python complex scalars.
import torch

a = torch.tensor([1 + 2j, -3 + 0.5j], requires_grad=True)
b = torch.tensor([2 - 1j, 0.5 + 4j], requires_grad=True)
x = torch.tensor([1.5, -2.0], requires_grad=True)
for name, out in (
    ("add", a + b),
    ("sub", a - b * 2),
    ("mul", a * b),
    ("div", a / b),
    ("pow", a**2),
    ("powt", a**b),
    ("rpow", 2**a),
    ("rdiv", 1j / a),
    ("rsub", 1 - a),
    ("neg", -a),
    ("mixed", a * x + x / b),
    ("scalar", x * (2 + 3j) - 1j),
):
    grads = torch.autograd.grad(out.abs().sum(), (a, b, x), allow_unused=True)
    print(name, out, out.grad_fn.name())
    if name not in ("powt", "rpow"):  # their gradients have rounding-noise components
        print("  ", [None if g is None else g for g in grads])
m = a * (2 + 3j)
print(m.grad_fn._saved_other, (x * 1j).grad_fn._saved_other)
print(torch.tensor([1 + 1j]) + torch.tensor([2.0], dtype=torch.float64))
a + torch.ones(3)
