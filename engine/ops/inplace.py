"""In place: PyTorch's checks before an in-place op (`check_inplace`), a tensor taking an op's
result and history (`rebase`), and the in-place ops (`add_`, `mul_`, ...) made from out-of-place
ones (`make_inplace`): the out-of-place op, then its result written back.

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
from engine._tensor import Tensor, make, write, writing
from engine.autograd import observer
from engine.autograd.forward_ad import FW
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Node, SavedTensor
from engine.ops.operands import binary_arrays
from engine.ops.record import wants_grad

INFERENCE_INPLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


def check_inplace(t: Tensor, *others: Any) -> None:
    """PyTorch's refusals before an in-place op on `t`."""
    if FW.on:  # pending tangents read their inputs: compute them before the write
        from engine.autograd.forward_jvp import flush

        flush()
    if t._view_fn is not None:
        from engine.ops.views import check_view_inplace

        check_view_inplace(t)
    elif t._base is not None and STATE.enabled and t._rg and "_custom_view" in t.__dict__:
        raise RuntimeError(custom_view_error(t))
    if STATE.enabled and t._rg and t._fn is None:
        raise RuntimeError(
            "a leaf Variable that requires grad is being used in an in-place operation."
        )
    if t._inference and not STATE.inference:
        raise RuntimeError(INFERENCE_INPLACE)
    tracer = observer.tracer()
    if tracer is not None:  # events not yet built must show the values before the write
        tracer.before_write(t)


def custom_view_error(t: Tensor) -> str:
    """PyTorch's refusal to modify in place an output that a custom Function returned as a view
    of (or as) one of its inputs."""
    return (
        f"Output {t._nr} of {t.__dict__['_custom_view']} is a view and is being modified "
        "inplace. This view was created inside a custom Function (or because an input was "
        "returned as-is) and the autograd logic to handle view+inplace would override the "
        "custom backward associated with the custom Function, leading to incorrect gradients. "
        "This behavior is forbidden. You can fix this by cloning the output of the custom "
        "Function."
    )


def overwrite(t: Tensor, values: Any) -> None:
    """Write `values` into `t`'s memory in place without recording (an initialiser, a state
    dict load, running statistics), as PyTorch's in-place ops under no_grad do: the version
    moves and a tracer sees the values before and after (engine/_tensor.py `write`)."""
    write(t, values)


def rebase(t: Tensor, out: Tensor) -> Tensor:
    """Make `t` (modified in place) take `out`'s data and history; returns `t`.

    For a view of a tensor in the graph, the base's history becomes a CopySlices node (see
    engine/ops/views.py), so gradients flow to the whole base.
    """
    new_tangent = None
    if FW.on:  # computed now: pending tangents read `t` before the write (and their nodes)
        from engine.autograd.forward_jvp import tangent_of

        new_tangent = tangent_of(out)
    src = t._d
    on_view = t._base is not None and (t._base._rg or out._rg)
    tracer = observer.tracer()
    if tracer is not None and out._fn is not None and not on_view:
        tracer.rebased(t, out)  # the op's output is `t` itself, at its new version
    if src is not out._d:  # (check_inplace told the observer before the op computed)
        write(t, out._d, told=True)
    else:  # the op wrote into t's memory itself
        with writing(t, told=True):
            pass
    if FW.on:
        from engine.autograd.forward_jvp import inplace_tangent

        inplace_tangent(t, new_tangent)
    if out._fn is not None:
        if on_view:
            from engine.ops.views import rebase_view

            rebase_view(t, out._fn)
        else:
            t._fn = out._fn
            t._nr = out._nr
            t._rg = True
            fix_saved_output(out._fn, t)
            if "_views" in t.__dict__:  # its views now see the new history
                from engine.ops.views import regenerate_views

                regenerate_views(t)
    return t


def fix_saved_output(node: Node, t: Tensor) -> None:
    """An op that saved its result saved `out`'s data; `t` now owns that history."""
    if node._saved is not None:
        for v in node._saved.values():
            if isinstance(v, SavedTensor) and v._is_output:
                v._data = t._d
                v._ver = t._ver
                v._ver_at = t._ver[0]


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


def make_inplace(
    fn: Callable[..., Tensor],
    name: str,
    graph: Callable[[Tensor, Any, Tensor], Tensor] | None = None,
    check: Callable[[Tensor, Tensor], None] | None = None,
) -> Callable[..., Tensor]:
    """The in-place variant `name` of the out-of-place op `fn` (`graph` and `check`: the op
    table row's inplace_graph and inplace_check)."""
    # an op whose overloads PyTorch's parser checks (_arg_parser.checked): checked here under
    # the in-place name, before anything else, then run without checking again
    parser = getattr(fn, "parser", None)
    wrapped = fn
    fn = getattr(fn, "impl", fn)

    @functools.wraps(wrapped)
    def op(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if parser is not None:
            parser.parse(args, kwargs, method=True, name=name)
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
        if graph is not None and src is not self:  # x.gt_(0) records GtBackward0
            out = graph(src, args[0] if args else kwargs.get("other"), out)
        if check is not None:
            check(self, out)
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
