# Custom autograd.Function with a jvp staticmethod (ctx attributes, save_for_forward).
import torch
import torch.autograd.forward_ad as fwAD


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        out = x * k
        ctx.save_for_forward(x)
        ctx.k = k
        print("forward sees", x)
        return out

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None

    @staticmethod
    def jvp(ctx, x_t, k_t):
        (x,) = ctx.saved_tensors
        print("jvp got", x_t, k_t, x)
        return x_t * ctx.k


class NoJvp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


primal = torch.tensor([[0.5, -1.0], [2.0, 0.0]], dtype=torch.double, requires_grad=True)
tangent = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.double)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = Fn.apply(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    y = Scale.apply(fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.tensor([0.5, 0.25])), 3.0)
    print(y)
    print(Scale.apply(torch.tensor([1.0, 2.0]), 3.0))
    z = fwAD.make_dual(torch.tensor([1.0, 2.0]), torch.ones(2))
    NoJvp.apply(z)
