import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.sum().backward()
try:
    y.grad_fn._saved_result
except RuntimeError as err:
    print("RuntimeError", err)
z = x * x
z.sum().backward(retain_graph=True)
print(z.grad_fn._saved_self is x)
