import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
vals, idx = x.max(dim=1)
print(vals, idx, vals.grad_fn.name())
vals.grad_fn.register_prehook(lambda go: print("pre", go))
vals.grad_fn.register_hook(lambda gi, go: print("post", gi, go))
vals.sum().backward()
print(x.grad)
a, b, c = torch.tensor([1.0, 2.0, 3.0], requires_grad=True).unbind()
a.grad_fn.register_prehook(lambda go: print("unbind pre", go))
(a * 5).backward()
