# The forward-mode AD tutorial: dual tensors, unpack_dual, tangents deleted on exit.
import torch
import torch.autograd.forward_ad as fwAD

torch.manual_seed(0)
primal = torch.randn(3, 3)
tangent = torch.randn(3, 3)


def fn(x, y):
    return x**2 + y**2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    print(dual_input)
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    print(fwAD.unpack_dual(dual_input_alt).tangent.is_contiguous())
    plain_tensor = torch.randn(3, 3)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp)
    print(torch.allclose(jvp, 2 * primal * tangent))
    print(type(fwAD.unpack_dual(dual_output)).__name__)
    p, t = fwAD.unpack_dual(dual_output)
    print(p.requires_grad, p.grad_fn, t.shape)

assert fwAD.unpack_dual(dual_output).tangent is None
print(dual_output)
print(fwAD.unpack_dual(dual_output))
fwAD.make_dual(primal, tangent)
