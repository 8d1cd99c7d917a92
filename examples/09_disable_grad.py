# title: Locally disabling gradient computation
# Whole blocks: the no-grad and inference-mode context managers. Finer-grained: the
# requires_grad flag of a tensor. (model.eval() is not one of these mechanisms.)
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.no_grad():
    y = x * 2  # this computation is not tracked
print(y.requires_grad, y.grad_fn)

with torch.set_grad_enabled(False):
    y = x * 2  # this computation is not tracked
print(y.requires_grad, y.grad_fn)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
x.requires_grad = False  # turn off gradients for x
z = x * y  # only y's gradient is computed
print(z.grad_fn, z.grad_fn.next_functions[0])

z.sum().backward()
print(x.grad, y.grad)
