import torch
import torch.nn as nn


class Scale(nn.Module):
    def forward(self, x, factor=1.0):
        return x * factor


m = Scale()


def pre(mod, args, kwargs):
    print("pre", args, kwargs)
    return args, {"factor": kwargs.get("factor", 1.0) * 10}


def post(mod, args, kwargs, out):
    print("post", kwargs, out)
    return out + 1


h1 = m.register_forward_pre_hook(pre, with_kwargs=True)
h2 = m.register_forward_hook(post, with_kwargs=True)
print(m(torch.ones(2), factor=2.0))
h1.remove()
h2.remove()
order = []
m.register_forward_hook(lambda *a: order.append("second"))
m.register_forward_hook(lambda *a: order.append("first"), prepend=True)
m(torch.ones(1))
print(order)
lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.fill_(1.0)
    lin.bias.zero_()
lin.register_forward_hook(lambda mod, inp, out: out * 0 + 42)
print(lin(torch.ones(1, 2)))
