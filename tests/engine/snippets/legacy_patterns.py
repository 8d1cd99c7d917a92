import torch
from torch.autograd import Variable

v = Variable(torch.ones(2), requires_grad=True)
print(v, v.requires_grad, type(v).__name__)
w = Variable(torch.tensor([1, 2]))
print(w)
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
x.grad.data.zero_()
print(x.grad)
(x * 3).sum().backward()
x.data -= 0.5 * x.grad.data
print(x, x.grad)
print(x.grad_fn, x.data.requires_grad)
t = torch.Tensor([1, 2, 3])
print(t, t.dtype)
u = torch.Tensor(2, 3)
print(u.shape, u.dtype)
print(torch.FloatTensor([1, 2]), torch.LongTensor([1, 2]))
