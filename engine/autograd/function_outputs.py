"""What a custom Function hands back, checked and wrapped as PyTorch does: forward's outputs
(`wrap_outputs`: dirty inputs, non-differentiable outputs, inputs returned as views, the saved
tensors packed) and backward's gradients (`map_grads`: one per input, shapes and dtypes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from engine import _dtype, _tensor
from engine.autograd import observer
from engine.autograd.graph import Grads, Node, SavedTensor, forward_name

if TYPE_CHECKING:
    from engine._tensor import Tensor
    from engine.autograd.function import BackwardCFunction


def map_grads(node: BackwardCFunction, result: Any) -> Grads:
    """Check a user backward's results against forward's inputs, as PyTorch's engine does."""
    d = node.__dict__
    is_tensor_arg: list[bool] = d["_is_tensor_arg"]
    shapes: list[Any] = d["_arg_meta"]
    if not isinstance(result, tuple):
        result = (result,)
    n = len(is_tensor_arg)
    if len(result) != n:
        if len(result) > n and all(r is None for r in result[n:]):
            result = result[:n]
        else:
            raise RuntimeError(
                f"function {node.name()} returned an incorrect number of gradients (expected "
                f"{n}, got {len(result)})"
            )
    out: Grads = []
    for i, (g, is_t) in enumerate(zip(result, is_tensor_arg)):
        if not is_t:
            if g is not None:
                raise RuntimeError(
                    f"function {node.name()} returned a gradient different than None at position "
                    f"{i + 1}, but the corresponding forward input was not a Variable"
                )
            continue
        if g is not None:
            if not isinstance(g, _tensor.Tensor):
                raise TypeError(f"expected Variable or None (got {type(g).__name__})")
            shape, dt = shapes[i]
            if g._d.shape != shape:
                try:
                    np.broadcast_shapes(shape, g._d.shape)
                    ok = np.broadcast_shapes(shape, g._d.shape) == g._d.shape
                except ValueError:
                    ok = False
                if not ok:
                    raise RuntimeError(
                        f"Function {node.name()} returned an invalid gradient at index "
                        f"{len(out)} - got {list(g._d.shape)} but expected shape compatible with "
                        f"{list(shape)}"
                    )
                from engine.ops._core import unbroadcast

                g = unbroadcast(g, shape)
            if g._d.dtype != dt:
                g = g.to(dt)
        out.append(g)
    return out


def wrap_outputs(node: Any, inputs: tuple[Tensor, ...], output: Any, record: bool) -> Any:
    single = not isinstance(output, tuple)
    outs = (output,) if single else output
    d = node.__dict__
    dirty = {id(t) for t in d.pop("_dirty", None) or ()}
    non_diff = {id(t) for t in d.pop("_non_diff", None) or ()}
    input_ids = {id(t) for t in inputs}
    wrapped: list[Any] = []
    meta: list[tuple[Any, Any] | None] = []
    for i, o in enumerate(outs):
        if not isinstance(o, _tensor.Tensor):
            wrapped.append(o)
            meta.append(None)  # a non-tensor output: its gradient is always None
            continue
        meta.append((o._d.shape, o._d.dtype))
        if not record:
            if id(o) in dirty:
                with _tensor.writing(o, told=True):  # forward wrote it (and told the observer)
                    pass
                if id(o) in input_ids and o._rg:  # PyTorch hands out a detached alias
                    alias = _tensor.make(o._d, False, None, 0)
                    alias._ver = o._ver
                    o = alias
            elif id(o) in input_ids and o._rg:  # PyTorch hands out an alias that needs no grad
                alias = _tensor.make(o._d, False, None, 0)
                alias._ver = o._ver
                alias._base = o if o._base is None else o._base
                o = alias
            wrapped.append(o)
            continue
        view_of_input = False
        if id(o) in dirty:
            with _tensor.writing(o, told=True):  # forward wrote it (and told the observer)
                pass
            if o._rg and o._fn is None and o._base is None:
                raise RuntimeError(
                    "a leaf Variable that requires grad has been used in an in-place operation."
                )
            t = o
        elif id(o) in input_ids or o._fn is not None or o._rg:
            # an input returned as is becomes a new tensor (a view) so its history is not lost
            t = _tensor.make(o._d, False, None, 0)
            t._ver = o._ver
            view_of_input = id(o) in input_ids or (o._view_fn is not None and o._base is not None)
            t._base = o._base if o._base is not None and view_of_input else o
        else:
            t = o
            view_of_input = o._view_fn is not None and o._base is not None
        if id(o) in non_diff:
            t._rg = False
        elif _dtype.kind(o._d.dtype) in "fc":  # floating and complex outputs are differentiable
            t._rg = True
            t._fn = node
            t._nr = i
            if view_of_input:  # PyTorch refuses to modify such an output in place
                t.__dict__["_custom_view"] = forward_name(node)
        wrapped.append(t)
    node._input_meta = tuple(meta)
    to_save = d.get("_to_save")
    if to_save is not None:
        out_ids = {id(w) for w in wrapped if isinstance(w, _tensor.Tensor)}
        packed: list[SavedTensor | _Plain | None] = []
        for t in to_save:
            if t is None:
                packed.append(None)
            elif id(t) in out_ids:
                packed.append(SavedTensor(t, True) if record else _Plain(t))
            else:
                packed.append(SavedTensor(t, False) if record else _Plain(t))
        d["_packed"] = packed
    if record and (tracer := observer.tracer()) is not None:
        tracer.node_made(node, tuple(w for w in wrapped if isinstance(w, _tensor.Tensor)), inputs)
    return wrapped[0] if single else tuple(wrapped)


class _Plain:
    """A saved tensor when nothing was recorded: no version checks."""

    __slots__ = ("t",)

    def __init__(self, t: Tensor) -> None:
        self.t = t

    def unpack(self, node: Node | None) -> Tensor:
        return self.t
