import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = (a * b).sum()
y.backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
y.backward(inputs=b)
print(a.grad, b.grad)
c = a * 2
z = (c * b).sum()
z.backward(inputs=[c])
print(c.grad, a.grad)
try:
    (a * 2).sum().backward(inputs=[])
except RuntimeError as err:
    print("RuntimeError", err)
