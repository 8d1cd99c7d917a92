import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * x
y.register_hook(lambda g: print("y hook", g))
s = y.sum()
s.backward(retain_graph=True)
s.backward(retain_graph=True)
print(x.grad)
g1 = torch.autograd.grad(s, x, retain_graph=True)
print(g1, x.grad)
