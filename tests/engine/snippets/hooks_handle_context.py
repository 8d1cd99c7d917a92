import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with x.register_hook(lambda g: g * 0):
    pass
(x * 2).sum().backward()
print(x.grad)
y = x * 1
handles = [y.register_hook(lambda g, i=i: print("hook", i)) for i in range(3)]
handles[1].remove()
y.sum().backward()
