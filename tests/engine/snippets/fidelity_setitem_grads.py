import torch

x = torch.zeros(5, requires_grad=True)
y = x * 1
y[1:3] = torch.tensor([2.0, 3.0])
y[torch.tensor([0, 4])] = 7.0
print(y, y.grad_fn)
y.sum().backward()
print(x.grad)
a = torch.arange(6.0, requires_grad=True)
b = a.clone()
b[b > 2] = 0
print(b, b.grad_fn)
b.sum().backward()
print(a.grad)
c = torch.zeros(3).index_put_((torch.tensor([0, 0, 2]),), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
print(c)
w = torch.ones(4, requires_grad=True)
z = w * 2
z.masked_fill_(torch.tensor([True, False, True, False]), -1.0)
print(z, z.grad_fn)
z.sum().backward()
print(w.grad)
t = torch.arange(10)
try:
    t[::-1]
except ValueError as e:
    print(e)
print(t[[1, 1, 2]], t[torch.tensor([[0, 1], [2, 3]])], torch.nonzero(t > 7, as_tuple=True))
r = torch.tensor([1.0, 2.0], requires_grad=True)
rr = r.repeat_interleave(torch.tensor([2, 3]))
print(rr, rr.grad_fn)
rr.sum().backward()
print(r.grad)
m = torch.zeros(2, 3)
m[:, 1] += 1
m[0] *= 5
print(m)
