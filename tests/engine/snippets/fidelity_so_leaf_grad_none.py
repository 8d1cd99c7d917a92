import torch

a = torch.rand(3, requires_grad=True).cuda() if torch.cuda.is_available() else torch.rand(3, requires_grad=True) * 1
print(a.is_leaf, a.grad_fn)
a.sum().backward()
print(a.grad)
b = torch.ones(2, requires_grad=True)
c = b.to(torch.float64)
c.sum().backward()
print(b.grad, c.grad, c.is_leaf)
w = torch.ones(2, requires_grad=True)
w2 = w + 0
w2.retain_grad()
(w2 * 3).sum().backward()
print(w2.grad, w.grad, w2.retains_grad, w.retains_grad)
print(torch.ones(1, requires_grad=True).float().is_leaf, torch.ones(1, requires_grad=True).double().is_leaf)
p = torch.nn.Parameter(torch.ones(2))
q = p.view(2, 1)
print(q.is_leaf, q.grad_fn, p.is_leaf)
