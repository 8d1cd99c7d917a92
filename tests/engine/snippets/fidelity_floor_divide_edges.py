import torch

a = torch.tensor([3.0, 4.0], requires_grad=True)
b = torch.tensor([2.0, 2.0])
c = torch.tensor([2.0, 2.0], requires_grad=True)
for r in (a // 2, torch.floor_divide(a, b), a // b, 7 // a, a // c, b // c, (a * 1) // (c * 1)):
    print(r, r.grad_fn.name(), [type(n).__name__ for n, _ in r.grad_fn.next_functions])
try:
    (a // c).sum().backward()
except RuntimeError as e:
    print("RuntimeError", e)
print(a.grad, c.grad)
