"""In-place ops (`add_`, `mul_`, ...): the out-of-place op, then its result written back.

The op runs on a copy of the pre-mutation values (so a node that saves `self`, like
`MulBackward0` for `mul_`, keeps the original, as PyTorch's codegen does), then the tensor
takes the output's data and history and its version counter goes up.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from engine import _dtype
from engine._dtype import type_name as type_name
from engine._tensor import Tensor, make
from engine.autograd.forward_ad import FW
from engine.autograd.grad_mode import STATE
from engine.ops._core import (
    INFERENCE_INPLACE,
    binary_arrays,
    check_inplace,
    rebase,
    wants_grad,
    writing,
)

# In-place arithmetic that records nothing runs straight into the tensor's memory (an optimizer
# step `p -= lr * p.grad` would otherwise allocate and copy every parameter).
_DIRECT = {"add_": np.add, "sub_": np.subtract, "mul_": np.multiply, "div_": np.true_divide}
_NODE_NAMES = {
    np.add: "AddBackward0",
    np.subtract: "SubBackward0",
    np.multiply: "MulBackward0",
    np.true_divide: "DivBackward0",
}


def _direct(self: Tensor, other: Any, ufunc: Any) -> bool:
    """Apply `ufunc` in place when nothing is recorded; False to take the full path."""
    if wants_grad(self, other if isinstance(other, Tensor) else None) or FW.on:
        return False  # recorded (or, in a forward-AD dual level, tangents to update)
    d = self._d
    if not d.flags.writeable:
        return False
    try:
        a, b, _, rt = binary_arrays(self, other)
    except (TypeError, RuntimeError):
        return False
    if rt != d.dtype or a is not d:
        return False
    if isinstance(b, np.ndarray) and np.broadcast_shapes(d.shape, b.shape) != d.shape:
        return False
    if ufunc is np.subtract and _dtype.kind(d.dtype) == "b":
        return False
    with writing(self, told=True) as tracer:  # (check_inplace told the observer)
        ufunc(d, b, out=d)
        if tracer is not None:
            # what the full path shows: the op as a cut point (its result a tensor of its own,
            # on the same memory here), then the version bump
            out = make(d, False, None, 0)
            tracer.untracked(
                _NODE_NAMES[ufunc], (out,), (self, other if isinstance(other, Tensor) else None)
            )
    return True


def make_inplace(fn: Callable[..., Tensor], name: str) -> Callable[..., Tensor]:
    """The in-place variant `name` of the out-of-place op `fn`."""

    @functools.wraps(fn)
    def op(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if self._inference and not STATE.inference and not (self._rg and STATE.enabled):
            # PyTorch checks inference tensors after the kernel ran: the data does change
            np.copyto(self._d, fn(self.detach(), *args, **kwargs)._d, casting="unsafe")
            raise RuntimeError(INFERENCE_INPLACE)
        check_inplace(self)
        tensors = [a for a in args if isinstance(a, Tensor)]
        ufunc = _DIRECT.get(name)
        if ufunc is not None and len(args) == 1 and not kwargs and _direct(self, args[0], ufunc):
            return self
        src = self
        if wants_grad(self, *tensors):
            src = make(self._d.copy(), self._rg, self._fn, self._nr)
            src._ver = [self._ver[0]]
            if FW.on:  # the copy stands for `self` in the op: it carries self's tangent
                from engine.autograd.forward_ad import set_tangent
                from engine.autograd.forward_jvp import tangent_of

                set_tangent(src, tangent_of(self))
        out = fn(src, *args, **kwargs)
        od, sd = out.dtype, self.dtype
        if od is not sd and od.category > sd.category:
            raise RuntimeError(
                f"result type {type_name(od)} can't be cast to the desired output type "
                f"{type_name(sd)}"
            )
        if sd.category == 3 and od.category < 3:  # abs_ of a complex tensor
            raise RuntimeError(f"In-place {name[:-1]} is not supported for complex tensors.")
        if out._d.shape != self._d.shape:
            raise RuntimeError(
                f"output with shape {list(self._d.shape)} doesn't match the broadcast shape "
                f"{list(out._d.shape)}"
            )
        if not self._d.flags.writeable:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers "
                "to a single memory location. Please clone() the tensor before performing the "
                "operation."
            )
        return rebase(self, out)

    op.__name__ = name
    op.__qualname__ = name
    return op
