# PyTorch's errors around dual levels and make_dual.
import torch
import torch.autograd.forward_ad as fwAD

p = torch.tensor([1.0, 2.0])


def attempt(f):
    try:
        f()
        print("ok")
    except Exception as e:
        print(type(e).__name__ + ":", e)


attempt(lambda: fwAD.make_dual(p, torch.ones(2)))
attempt(lambda: fwAD.exit_dual_level())
print(fwAD.unpack_dual(p))
with fwAD.dual_level() as level:
    print("level", level)
    d = fwAD.make_dual(p, torch.ones(2))
    attempt(lambda: fwAD.make_dual(p, torch.ones(3)))
    attempt(lambda: fwAD.make_dual(torch.arange(2), torch.ones(2)))
    attempt(lambda: fwAD.make_dual(p, torch.arange(2)))
    attempt(lambda: fwAD.make_dual(d, torch.ones(2)))
    attempt(lambda: fwAD.make_dual(p, torch.ones(2), level=1))
    attempt(lambda: fwAD.enter_dual_level())
    print(fwAD.unpack_dual(d).tangent.dtype)
    e = fwAD.make_dual(p, torch.ones(2, dtype=torch.float64))
    print(fwAD.unpack_dual(e).tangent.dtype)
print(fwAD.enter_dual_level())
fwAD.exit_dual_level(level=0)
attempt(lambda: fwAD.exit_dual_level(level=0))
with fwAD.dual_level():
    with fwAD.dual_level():
        pass
