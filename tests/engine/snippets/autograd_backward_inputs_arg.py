import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = (a * b).sum()
y.backward(inputs=[a])
print(a.grad, b.grad)
z = (a + b).sum()
torch.autograd.backward(z, inputs=[b])
print(a.grad, b.grad)
g = torch.autograd.grad((a**2).sum(), [a, b], allow_unused=True)
print(g)
