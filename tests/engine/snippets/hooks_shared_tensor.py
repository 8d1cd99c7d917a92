import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.register_hook(lambda g: print("y hook", g))
a = y * 3
b = y.exp()
x.register_hook(lambda g: print("x hook", g))
(a.sum() + b.sum()).backward()
print(x.grad)
p, q = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True).split(2)
p.register_hook(lambda g: print("p hook", g))
q.register_hook(lambda g: print("q hook", g))
p.grad_fn.register_hook(lambda gi, go: print("split node", gi, go))
(p * 2).sum().backward()
