import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
calls = []
a.register_hook(lambda g: calls.append(("first", g.tolist())))
a.register_hook(lambda g: g * 2)
a.register_hook(lambda g: calls.append(("third", g.tolist())))
(a * a).sum().backward()
print(calls)
print(a.grad)
b = a * 1
h = b.register_hook(lambda g: g.clamp(max=1.0))
(b * 3).sum().backward()
print(a.grad)
