import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.exp().sum()


def post(grad_inputs, grad_outputs):
    print("post", grad_inputs, grad_outputs)


def pre(grad_outputs):
    print("pre", grad_outputs)
    return (grad_outputs[0] * 2,)


y.grad_fn.register_hook(post)
y.grad_fn.register_prehook(pre)
z.backward()
print(x.grad)
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
h = b.grad_fn.register_hook(lambda gi, go: (gi[0] * 0, None))
b.sum().backward()
print(a.grad)
h.remove()
a.grad = None
(a * 2).sum().backward()
print(a.grad)
