import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
d = c.exp()
e = c.sin()
f = (d + e).sum()
for name, t in [("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("f", f)]:
    t.register_hook(lambda g, name=name: print("hook", name))
for name, t in [("c", c), ("d", d), ("e", e), ("f", f)]:
    t.grad_fn.register_hook(lambda gi, go, n=t.grad_fn.name(): print("node", n))
a.register_post_accumulate_grad_hook(lambda t: print("acc a"))
b.register_post_accumulate_grad_hook(lambda t: print("acc b"))
f.backward()
