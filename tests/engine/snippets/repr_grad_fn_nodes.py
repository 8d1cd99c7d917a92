import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
print(repr(y.grad_fn).split(" at ")[0])
acc = y.grad_fn.next_functions[0][0]
print(repr(acc).split(" at ")[0], acc.name())
print(acc.next_functions, acc.variable is x)
print(y.grad_fn.metadata)
print(str(type(y.grad_fn).__name__))
z = x.sum()
print(z.grad_fn.next_functions[0][1], z.output_nr if hasattr(z, "output_nr") else None)
