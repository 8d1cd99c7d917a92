import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y1 = (x * 2).sum()
y2 = (x * x).sum()
torch.autograd.backward([y1, y2])
print(x.grad)
x.grad = None
v = x * 3
torch.autograd.backward(v, grad_tensors=torch.tensor([1.0, 2.0]))
print(x.grad)
x.grad = None
torch.autograd.backward([x.exp().sum()], [torch.tensor(2.0)])
print(x.grad)
