import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
h = y.register_hook(lambda g: g)
print(type(h).__name__, repr(h).split(" at ")[0])
print(isinstance(y.grad_fn, torch.autograd.graph.Node))
print(x.shape, x.size(), y.size(0), torch.Size([2, 3]).numel())
with torch.no_grad():
    z = x * 2
z.requires_grad_()
print(z.is_leaf, z.requires_grad, z.grad_fn, z)
w = torch.zeros(2)
w.requires_grad = True
print(w)
r = y.detach().requires_grad_(True)
print(r.is_leaf, r)
acc = y.grad_fn.next_functions[0][0]
acc.register_hook(lambda gi, go: print("acc hook", gi, go))
acc.register_prehook(lambda go: print("acc prehook", go))
y.sum().backward()
print(x.grad)
