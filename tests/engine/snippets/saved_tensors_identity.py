import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = x * w
print(y.grad_fn._saved_self is x, y.grad_fn._saved_other is w)
e = x.exp()
print(e.grad_fn._saved_result is e, e.grad_fn._saved_result.equal(e))
print(e.grad_fn._saved_result)
s = x.sin()
print(s.grad_fn._saved_self is x)
p = x.pow(2)
print(p.grad_fn._saved_self is x, p.grad_fn._saved_exponent)
t = x.tanh()
print(t.grad_fn._saved_result)
a = x + w
print(a.grad_fn._saved_alpha)
try:
    a.grad_fn._saved_self
except AttributeError as err:
    print("AttributeError", err)
