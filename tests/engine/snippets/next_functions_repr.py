import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * torch.tensor([3.0, 4.0])
print(y.grad_fn.next_functions)
z = y.sum()
print(z.grad_fn)
print(z.grad_fn.next_functions)
print(z.grad_fn.next_functions[0][0].next_functions[0][0])
w = x.exp() + x
print(w.grad_fn.next_functions)
