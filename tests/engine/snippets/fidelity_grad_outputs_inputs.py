import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
(g,) = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y))
print(g)
(g2,) = torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.0, -1.0]), retain_graph=True)
print(g2)
a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
loss = a * b + b ** 2
loss.backward(inputs=[a])
print(a.grad, b.grad)
loss2 = a * b
loss2.backward(inputs=[b])
print(a.grad, b.grad)
outs = [x.sum(), (x * 2).sum()]
torch.autograd.backward(outs)
print(x.grad)
x.grad = None
torch.autograd.backward([x * 1], [torch.tensor([1.0, 2.0, 3.0])])
print(x.grad)
print(torch.autograd.grad([x.sum(), x.prod()], [x]))
try:
    torch.autograd.grad(x.sum(), x, grad_outputs=torch.ones(2))
except RuntimeError as e:
    print(e)
