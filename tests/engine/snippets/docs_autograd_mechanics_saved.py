import torch

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a.sin()
print(b.grad_fn._saved_self, b.grad_fn.name(), b.grad_fn.next_functions)
c = a * 2
print(c.grad_fn._saved_other, c.grad_fn._saved_self)
d = a.sum()
print(d.grad_fn._saved_self_sym_sizes)
