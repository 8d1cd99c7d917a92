import torch

x = torch.ones(2, requires_grad=True)
y = x * 2
y.retain_grad()
z = (y * y).sum()
z.backward()
print(y.grad, y.is_leaf, x.grad, y.retains_grad, x.retains_grad)
print(y.grad_fn.next_functions, z.grad_fn.next_functions[0][0].next_functions)
a = x * 3
b = a.sum()
b.backward()
print(a.grad)
