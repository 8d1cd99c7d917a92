# The forward-AD tutorial's custom Function checked by gradcheck(check_forward_ad=True).
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)


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


fn = Fn.apply
primal = torch.randn(3, 3, dtype=torch.double, requires_grad=True)
tangent = torch.randn(3, 3)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
print(jvp)
print(
    torch.autograd.gradcheck(
        Fn.apply,
        (primal,),
        check_forward_ad=True,
        check_backward_ad=False,
        check_undefined_grad=False,
        check_batched_grad=False,
    )
)
x = torch.tensor([0.5, -1.0], dtype=torch.double, requires_grad=True)
print(torch.autograd.gradcheck(lambda a: a.sin() * a, (x,), check_forward_ad=True))


class Wrong(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_forward(a)
        return a * a

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(ctx, a_t):
        (a,) = ctx.saved_tensors
        return a_t * a


print(torch.autograd.gradcheck(Wrong.apply, (x,), check_forward_ad=True, check_backward_ad=False, raise_exception=False))
torch.autograd.gradcheck(Wrong.apply, (x,), check_forward_ad=True, check_backward_ad=False)
