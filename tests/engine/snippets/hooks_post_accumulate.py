import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)


def hook(t):
    print("post acc", t.grad)
    with torch.no_grad():
        t.grad.mul_(0.5)


x.register_post_accumulate_grad_hook(hook)
x.register_hook(lambda g: print("pre", g))
(x * 4).sum().backward()
print(x.grad)
y = x * 2
try:
    y.register_post_accumulate_grad_hook(hook)
except RuntimeError as err:
    print("RuntimeError", err)
