import torch

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)
a = torch.ones(3, requires_grad=True)
with torch.no_grad():
    b = a * 2
print(b.requires_grad)
with torch.inference_mode():
    c = a * 2
print(c.requires_grad)
t = torch.ones(2, requires_grad=True)
t2 = t * 2
t2.register_hook(lambda g: g * 2)
t2.retain_grad()
t2.sum().backward()
print(t2.grad, t.grad)
