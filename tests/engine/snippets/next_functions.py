import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = c + a
e = d.sum()
print(e.grad_fn.name())
print([(f.name() if f is not None else None, n) for f, n in e.grad_fn.next_functions])
nf = d.grad_fn.next_functions
print(nf[0][0].name(), nf[1][0].name())
print(nf[1][0].variable is a)
print(c.grad_fn.next_functions[0][0] is nf[1][0])
k = a * 2
print([(f.name() if f is not None else None, n) for f, n in k.grad_fn.next_functions])
m = torch.tensor([1.0, 2.0]) * a
print([(f.name() if f is not None else None, n) for f, n in m.grad_fn.next_functions])
print(type(e.grad_fn).__name__)
print(e.grad_fn)
print(a.grad_fn)
