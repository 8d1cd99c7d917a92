# The autograd mechanics docs, "Autograd for Complex Numbers": a real loss of complex inputs,
# its gradient is the conjugate Wirtinger derivative (times 2), i.e. dL/dx + i dL/dy.
import torch

z = torch.tensor([1 + 1j, 2 - 1j, -0.5 + 3j], requires_grad=True)
loss = (z.abs() ** 2).sum()
loss.backward()
print(loss, z.grad)  # 2 z
z.grad = None
(z * z.conj()).real.sum().backward()
print(z.grad)
x = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
y = torch.tensor([1.0, -1.0, 3.0], requires_grad=True)
w = torch.complex(x, y)
print(w.grad_fn.name(), [type(f).__name__ for f, _ in w.grad_fn.next_functions])
(w.abs() ** 2).sum().backward()
print(x.grad, y.grad)  # dL/dx, dL/dy: the real and imaginary parts of z.grad
z.grad = None
s = (z**2).sum()
print(s)
try:
    s.backward()
except RuntimeError as e:
    print(e)
s.backward(torch.tensor(1 + 0j))
print(z.grad)  # conj(2 z)
z.grad = None
s2 = (z**2).sum()
(g,) = torch.autograd.grad(s2, z, grad_outputs=torch.tensor(1j))
print(g)
torch.autograd.grad((z * 3).sum(), z)
