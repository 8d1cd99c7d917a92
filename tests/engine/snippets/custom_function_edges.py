import torch


class Identity(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 2


class WithInt(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 7

    @staticmethod
    def backward(ctx, g, g_int):
        print("g_int", g_int)
        return g


class NoneGrad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y

    @staticmethod
    def backward(ctx, g):
        return None, g


def attempt(label, fn):
    try:
        print(label, "ok", fn())
    except Exception as err:
        print(label, type(err).__name__, err)


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Identity.apply(x)
print(y is x, y.grad_fn.name(), y._base is x if y._base is not None else None)
y.sum().backward()
print(x.grad)
out, k = WithInt.apply(x)
print(out, k)
out.sum().backward()
print(x.grad)
a = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([2.0], requires_grad=True)
NoneGrad.apply(a, b).sum().backward()
print(a.grad, b.grad)
attempt("kwargs", lambda: Identity.apply(x=x))
attempt("instantiate", lambda: Identity()(x))
attempt("no grad input", lambda: Identity.apply(torch.ones(2)).requires_grad)
