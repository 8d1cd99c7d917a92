import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward(gradient=torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)
x.grad = None
y2 = x**2
y2.backward(torch.ones(3))
print(x.grad)
x.grad = None
z = (x * 2).sum()
z.backward(torch.tensor(3.0))
print(x.grad)
try:
    (x * 2).backward(torch.ones(2))
except RuntimeError as err:
    print("RuntimeError", err)
