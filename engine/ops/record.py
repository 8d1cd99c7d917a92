"""The one path that makes a built-in op's graph node: `record` (and `record_multi` for several
outputs) wraps the forward's ndarray as the output tensor and, when an input requires grad,
makes the node of the class the op passes, wired to the inputs, with what it saves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make
from engine.autograd import observer
from engine.autograd.forward_ad import FW
from engine.autograd.grad_mode import ANOMALY, STATE
from engine.autograd.graph import Edge, Grads, Node, SavedTensor, _next_seq

NONE_EDGE: Edge = (None, 0)
_new = object.__new__


def edge(t: Tensor | None) -> Edge:
    """The graph edge a tensor contributes as an op input."""
    if t is None or not t._rg:
        return NONE_EDGE
    fn = t._fn
    if fn is not None:
        return (fn, t._nr)
    return (t._grad_accumulator(), 0)


def wants_grad(*inputs: Tensor | None) -> bool:
    """True when the op being made must be recorded."""
    if not STATE.enabled:
        return False
    for t in inputs:  # noqa: SIM110 - a plain loop is faster than any() on the hot path
        if t is not None and t._rg:
            return True
    return False


def new_node(cls: type[Node], inputs: tuple[Tensor | None, ...]) -> Node:
    """A node of `cls` wired to `inputs` (no outputs yet)."""
    node: Node = _new(cls)
    edges = []
    for t in inputs:
        if t is None or not t._rg:
            edges.append(NONE_EDGE)
        elif t._fn is not None:
            edges.append((t._fn, t._nr))
        else:
            acc = t._acc
            edges.append((acc if acc is not None else t._grad_accumulator(), 0))
    node.next_functions = tuple(edges)
    node._seq = _next_seq()
    node._saved = None
    node._shapes = None
    if ANOMALY.anomaly:
        from engine.autograd.anomaly_mode import forward_stack

        node._trace = forward_stack()
    return node


def record(
    cls: type[Node],
    data: np.ndarray[Any, Any],
    inputs: tuple[Tensor | None, ...],
    saved: dict[str, Any] | None = None,
    out_saved: str | None = None,
    shapes: tuple[tuple[int, ...], ...] | None = None,
    keep: dict[str, Any] | None = None,
) -> Tensor:
    """Wrap `data` as the op's output, recording a `cls` node when any input requires grad.

    `saved` maps PyTorch's saved names (`self`, `other`, ...) to tensors or plain values;
    `out_saved` names the output when the op saves its result (`result`); `keep` holds
    engine-private values for the node's backward (a pooling's tap array), outside PyTorch's
    saved names, set before anyone sees the node.
    """
    if FW.on:  # inside a forward-AD dual level: the output may need a tangent
        from engine.autograd.forward_jvp import record_dual

        out = record_dual(cls, data, inputs, saved, out_saved, shapes)
        if keep is not None and out._fn is not None:
            keep_on(out._fn, keep)
        return out
    if not STATE.enabled:
        out = make(data, False, None, 0)
        if (tracer := observer.tracer()) is not None:  # a no_grad cut point, drawn by the tracer
            tracer.untracked(cls._name, (out,), inputs)
        return out
    for t in inputs:
        if t is not None and t._rg:
            break
    else:
        return make(data, False, None, 0)
    if _dtype.kind(data.dtype) == "c":  # conjugate Wirtinger gradients (ops/complex_grad.py)
        from engine.ops.complex_grad import complex_twin

        cls, keep = complex_twin(cls, inputs, keep)
    node = new_node(cls, inputs)
    if keep is not None:
        keep_on(node, keep)
    node._shapes = shapes
    node._input_meta = ((data.shape, data.dtype),)  # PyTorch's `_input_metadata`
    out = make(data, True, node, 0)
    if saved is not None or out_saved is not None:
        node._saved = store = {}
        if saved is not None:
            if observer.SAVED_HOOKS:
                saved = packing_order(saved, cls)
            for k, v in saved.items():
                store[k] = save(v) if type(v) is Tensor or isinstance(v, Tensor) else v
        if out_saved is not None:
            store[out_saved] = SavedTensor(out, True)
    tracer = observer.tracer()
    if tracer is not None:
        tracer.node_made(node, (out,), inputs)
    return out


def record_multi(
    cls: type[Node],
    datas: list[np.ndarray[Any, Any]],
    inputs: tuple[Tensor | None, ...],
    saved: dict[str, Any] | None = None,
    differentiable: list[bool] | None = None,
    keep: dict[str, Any] | None = None,
    out_saved: tuple[str, ...] | None = None,
    shapes: tuple[tuple[int, ...], ...] | None = None,
) -> list[Tensor]:
    """Like `record` for ops with several outputs (split, max with dim, ...). `out_saved` names
    the outputs the node saves, one name per output ("" for one it does not save)."""
    if FW.on:
        from engine.autograd.forward_jvp import flush, record_multi_dual

        flush()
        FW.on = False
        try:
            outs = record_multi(cls, datas, inputs, saved, differentiable, keep, out_saved, shapes)
        finally:
            FW.on = True
        return record_multi_dual(outs, cls, inputs, saved)
    if not wants_grad(*inputs):
        return [make(d, False, None, 0) for d in datas]
    node = new_node(cls, inputs)
    if keep is not None:
        keep_on(node, keep)
    outs = []
    for i, d in enumerate(datas):
        if differentiable is None or differentiable[i]:
            outs.append(make(d, True, node, i))
        else:
            outs.append(make(d, False, None, 0))
    node._input_meta = tuple((d.shape, d.dtype) for d in datas)
    if shapes is not None:
        node._shapes = shapes
    if saved is not None:
        if observer.SAVED_HOOKS:
            saved = packing_order(saved, cls)
        node._saved = {k: save(v) if isinstance(v, Tensor) else v for k, v in saved.items()}
    if out_saved is not None:
        store = node._saved if node._saved is not None else {}
        for o, name in zip(outs, out_saved):
            if name:  # a non-differentiable output (indices) is saved as an input is
                store[name] = SavedTensor(o, o._fn is node)
        node._saved = store
    tracer = observer.tracer()
    if tracer is not None:
        tracer.node_made(node, tuple(outs), inputs)
    return outs


def keep_on(node: Node, keep: dict[str, Any]) -> None:
    """Set `record`'s `keep` values on a node (slots or its dict, whichever the class has)."""
    for k, v in keep.items():
        setattr(node, k, v)


def packing_order(saved: dict[str, Any], cls: type[Node] | None = None) -> dict[str, Any]:
    """Saved inputs in the order PyTorch packs them, which pack hooks can observe: its generated
    code mostly saves them sorted by name (`a * b` packs `other` before `self`); a node class
    whose op does otherwise lists its order in `_pack_order`."""
    order = cls._pack_order if cls is not None else ()
    if order:
        return {k: saved[k] for k in (*order, *sorted(set(saved) - set(order))) if k in saved}
    return dict(sorted(saved.items()))


def save(t: Tensor) -> SavedTensor:
    """Save an input tensor for backward (PyTorch refuses inference tensors here)."""
    if not t._inference and not observer.SAVED_HOOKS:
        # the common case, without SavedTensor.__init__'s branches
        s: SavedTensor = _new(SavedTensor)
        s._tensor = t
        s._ver = v = t._ver
        s._ver_at = v[0]
        s._is_output = False
        s._hooks_packed = None
        s._data = None
        s._nr = 0
        s._rg = False
        return s
    if t._inference and not STATE.inference:
        raise RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
            "inference mode in computation tracked by autograd. To work around this, you can "
            "make a clone to get a normal tensor and use it in autograd, or use "
            "`torch.no_grad()` instead of `torch.inference_mode()`."
        )
    return SavedTensor(t, False)


def zeros_for(node: Node, grads: Grads) -> list[Tensor]:
    """Replace missing output gradients of a multi-output node by zeros."""
    out = []
    for g, (shape, dt) in zip(grads, node._input_meta):
        out.append(g if g is not None else make(np.zeros(shape, dt), False, None, 0))
    return out
