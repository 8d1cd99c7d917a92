import torch

w = torch.tensor(2.0, requires_grad=True)
a = w * 3
b = w**2
c = a + b
c.backward()
print(w.grad)
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x + x + x
y.sum().backward()
print(x.grad, y.grad_fn.next_functions)
z = torch.stack([x, x * 2]).sum()
z.backward()
print(x.grad)
