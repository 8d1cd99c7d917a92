import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
for e in [x * 2.5, x * 2, x * True, c * x, x * c, x / 2, x / c, c / x, x / x, x * x]:
    fn = e.grad_fn
    print(fn.name(), fn._saved_self, fn._saved_other)
y = x * c
y.sum().backward()
print(y.grad_fn._saved_self)
try:
    print(y.grad_fn._saved_other)
except RuntimeError as err:
    print("RuntimeError", err)
