"""In place on views: `CopySlices` and the regenerated `AsStridedBackward0`, plus `zero_`,
`fill_`, `copy_` and `fill_diagonal_`.

PyTorch's model: after `v = b[1:]; v.mul_(2)` the base `b` takes a `CopySlices` node that
wraps the in-place op's node (its first edge goes to `b`'s old history, the rest are the
op's other inputs), and `v`'s grad_fn becomes `AsStridedBackward0` over that `CopySlices`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor, make, write
from engine.autograd import observer
from engine.autograd.forward_jvp import touches
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads, Node
from engine.ops._core import (
    OpNode,
    check_inplace,
    edge,
    new_node,
    rebase,
    record,
)
from engine.ops.inplace import fix_saved_output
from engine.ops.shape import as_view
from engine.ops.table import Op

ViewFn = Any  # ndarray of the base's shape -> ndarray view


NOGRAD_VIEW_MSG = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the no_grad block "
    "(if you don't want the inplace to be tracked) or both outside (if you want the inplace "
    "to be tracked)."
)


def check_view_inplace(t: Tensor) -> None:
    """PyTorch's refusals for in-place ops on views (called by `check_inplace`)."""
    if not STATE.enabled or t._view_fn is None or t._base is None:
        return
    base = t._base
    if t._rg and "_custom_view" in t.__dict__:
        from engine.ops._core import custom_view_error

        raise RuntimeError(custom_view_error(t))
    if t.__dict__.get("_nograd_view"):
        raise RuntimeError(NOGRAD_VIEW_MSG)
    if (base._rg and base._fn is None) or (t._rg and t._fn is None):
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )
    multi = t.__dict__.get("_multi_view")
    if multi is not None and t._rg:
        raise RuntimeError(
            f"Output {t._nr} of {multi} is a view and is being modified inplace. This "
            "view is the output of a function that returns multiple views. Such functions do "
            "not allow the output views to be modified inplace. You should replace the inplace "
            "operation by an out-of-place one."
        )


def rebase_view(t: Tensor, node: Node) -> None:
    """After an in-place op made `node` on view `t`: the base's history becomes CopySlices."""
    base = t._base
    vf = t._view_fn
    if base is None or vf is None:  # a detached alias: not a differentiable view
        t._fn, t._nr, t._rg = node, 0, True
        return
    if node.next_functions and node.next_functions[0][0] is None and base._rg:
        node.next_functions = (edge(base), *node.next_functions[1:])
    cs: CopySlices = new_node(CopySlices, (base,))  # type: ignore[assignment]
    cs.next_functions = (edge(base), *node.next_functions[1:])
    cs.fn = node
    cs.view_fn = vf
    cs._shapes = (base._d.shape,)
    cs._seq = node._seq
    base._fn, base._nr, base._rg = cs, 0, True
    fix_saved_output(node, t)
    _regenerate(t, base, vf)
    regenerate_views(base, t)
    tracer = observer.tracer()
    if tracer is not None:
        tracer.node_made(cs, (base,), (base,))


def regenerate_views(root: Tensor, done: Tensor | None = None) -> None:
    """Give every live view of `root` (but `done`) a grad_fn over the root's new history."""
    refs = root.__dict__.get("_views")
    if not refs or not root._rg:
        return
    live = []
    for r in refs:
        w = r()
        if w is None:
            continue
        live.append(r)
        if w is done or w._view_fn is None or "_multi_view" in w.__dict__:
            continue
        if w._d.dtype == root._d.dtype:  # `view(dtype)` views are not differentiable
            _regenerate(w, root, w._view_fn)
    refs[:] = live


def _regenerate(t: Tensor, base: Tensor, vf: ViewFn) -> None:
    """`t`'s grad_fn after its base changed history: AsStridedBackward0 over the base."""
    asn: AsStridedBackward0 = new_node(AsStridedBackward0, (base,))  # type: ignore[assignment]
    asn.view_fn = vf
    asn._shapes = (base._d.shape,)
    asn._saved = geometry(t._d, base._d)
    t._fn, t._nr, t._rg = asn, 0, True
    tracer = observer.tracer()
    if tracer is not None:
        tracer.node_made(asn, (t,), (base,))


def geometry(view: np.ndarray[Any, Any], base: np.ndarray[Any, Any]) -> dict[str, Any]:
    """What PyTorch's AsStridedBackward0 saves: the view's size, stride and storage offset."""
    item = view.itemsize or 1
    off = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return {
        "size": view.shape,
        "stride": tuple(s // item for s in view.strides),
        "storage_offset": off // item,
    }


def replay(base: Tensor, vf: ViewFn) -> Tensor:
    """The view `vf` of `base` as an engine view (AsStridedBackward0 when recorded)."""
    data = vf(base._d)
    saved = geometry(data, base._d)
    keep = {"view_fn": vf}
    out = record(AsStridedBackward0, data, (base,), saved, shapes=(base._d.shape,), keep=keep)
    return as_view(out, base, vf)


def embed(g: Tensor, shape: tuple[int, ...], vf: ViewFn) -> Tensor:
    """Zeros of `shape` with `g` written into the view `vf` (the backward of a view op)."""
    if not STATE.enabled:
        z = np.zeros(shape, g._d.dtype)
        vf(z)[...] = g._d
        return make(z, False, None, 0)
    z_t = make(np.zeros(shape, g._d.dtype), False, None, 0)
    copy_(replay(z_t, vf), g)
    return z_t


class AsStridedBackward0(OpNode):
    """A view's node over its base; made by `torch.as_strided` it also holds `flat`, the
    input element each output element reads (elements may be read several times)."""

    __slots__ = ("flat", "view_fn")
    view_fn: ViewFn
    _name = "AsStridedBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None and self._shapes is not None
        flat = getattr(self, "flat", None)
        if flat is None:
            return [embed(g, self._shapes[0], self.view_fn)]
        from engine.ops.index import index_put, narrow
        from engine.ops.shape import reshape

        shape = self._shapes[0]
        n = int(np.prod(shape))
        extra = int(flat.size > 0 and int(flat.max()) >= n)  # a slot for reads outside the input
        z = make(np.zeros(n + extra, g._d.dtype), False, None, 0)
        key = make(flat.reshape(-1), False, None, 0)
        summed = index_put(z, (key,), reshape(g, (-1,)), True)
        return [reshape(narrow(summed, 0, 0, n) if extra else summed, shape)]


class CopySlices(OpNode):
    """The base's node after an in-place op on one of its views."""

    __slots__ = ("fn", "view_fn")
    fn: Node
    view_fn: ViewFn
    _name = "torch::autograd::CopySlices"

    def apply(self, grads: Grads) -> Grads:
        from engine._layout import contiguous_format
        from engine.ops.tensor_shape import clone

        g = grads[0]
        assert g is not None
        vf = self.view_fn
        if STATE.enabled:  # create_graph: the same steps with recorded ops
            result = clone(g, memory_format=contiguous_format)  # the view replays on a dense base
            region = replay(result, vf)
            res = self.fn.apply([clone(region, memory_format=contiguous_format)])
            copy_(region, res[0]) if res[0] is not None else zero_(region)
        else:
            data = g._d.copy()
            res = self.fn.apply([make(vf(data).copy(), False, None, 0)])
            vf(data)[...] = 0 if res[0] is None else res[0]._d
            result = make(data, False, None, 0)
        return [result if self.needs(0) else None, *list(res[1:])]

    def release(self) -> None:
        self.fn.release()
        super().release()


# -- in-place utilities ------------------------------------------------------------------
def zero_(self: Tensor) -> Tensor:
    """Fill with zeros in place (ZeroBackward0)."""
    check_inplace(self)
    if not (STATE.enabled and self._rg) and not touches(self):
        write(self, 0, told=True)
        return self
    return rebase(self, record(ZeroBackward0, np.zeros_like(self._d), (self,)))


def fill_(self: Tensor, value: Any) -> Tensor:
    """Fill with a scalar (FillBackward2) or a 0-dim tensor (FillBackward3) in place."""
    check_inplace(self)
    if isinstance(value, Tensor):
        if value._d.ndim:
            raise RuntimeError(
                "fill_ only supports 0-dimension value tensor but got tensor with "
                f"{value._d.ndim} dimensions."
            )
        if (STATE.enabled and (self._rg or value._rg)) or touches(self, value):
            data = np.full_like(self._d, value._d)
            return rebase(self, record(FillBackward3, data, (self, value)))
        value = value._d
    elif (STATE.enabled and self._rg) or touches(self):
        return rebase(self, record(FillBackward2, np.full_like(self._d, value), (self,)))
    else:
        _dtype.check_scalar_fits(value, self._d.dtype)
    write(self, value, told=True)
    return self


def copy_(self: Tensor, src: Any, non_blocking: bool = False) -> Tensor:
    """Copy `src` (broadcast, cast) into `self` in place (CopyBackwards)."""
    check_inplace(self)
    if not isinstance(src, Tensor):
        if not isinstance(src, int | float | bool):
            raise TypeError(
                f"copy_(): argument 'other' (position 1) must be Tensor, not {type(src).__name__}"
            )
        return fill_(self, src)
    try:
        data = np.broadcast_to(src._d, self._d.shape)
    except ValueError:
        raise RuntimeError(_size_mismatch(self._d.shape, src._d.shape)) from None
    if not (STATE.enabled and (self._rg or src._rg)) and not touches(self, src):
        write(self, data, told=True)
        return self
    shapes = (self._d.shape, src._d.shape)
    keep = {"src_dtype": src.dtype}
    out = record(CopyBackwards, data.astype(self._d.dtype), (self, src), shapes=shapes, keep=keep)
    return rebase(self, out)


def _size_mismatch(a: tuple[int, ...], b: tuple[int, ...]) -> str:
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and y != 1:
            dim = max(len(a), len(b)) - i
            return (
                f"The size of tensor a ({x}) must match the size of tensor b ({y}) at "
                f"non-singleton dimension {dim}"
            )
    return "size mismatch"


def _zeros(g: Tensor) -> Tensor:
    return make(np.zeros_like(g._d), False, None, 0)


class ZeroBackward0(OpNode):
    __slots__ = ()
    _name = "ZeroBackward0"

    def apply(self, grads: Grads) -> Grads:
        assert grads[0] is not None
        return [_zeros(grads[0])]


class FillBackward2(ZeroBackward0):
    __slots__ = ()
    _name = "FillBackward2"


class FillBackward3(OpNode):
    __slots__ = ()
    _name = "FillBackward3"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.reduce import sum as _sum

        g = grads[0]
        assert g is not None
        return [_zeros(g) if self.needs(0) else None, _sum(g) if self.needs(1) else None]


class CopyBackwards(OpNode):
    __slots__ = ("src_dtype",)
    _name = "torch::autograd::CopyBackwards"
    src_dtype: Any  # not a PyTorch saved value: kept off `_saved`

    def apply(self, grads: Grads) -> Grads:
        from engine.ops._core import unbroadcast
        from engine.ops.convert import to

        g = grads[0]
        assert g is not None and self._shapes is not None
        gs = None
        if self.needs(1):
            gs = unbroadcast(to(g, self.src_dtype), self._shapes[1])
        return [_zeros(g) if self.needs(0) else None, gs]


# -- fill_diagonal_ ----------------------------------------------------------------------
def fill_diagonal_(self: Tensor, fill_value: Any, wrap: bool = False) -> Tensor:
    """Write `fill_value` on the main diagonal in place."""
    check_inplace(self)
    a = self._d
    if a.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if a.ndim > 2 and len(set(a.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")

    def fill(d: np.ndarray[Any, Any]) -> None:
        if d.ndim == 2:
            np.fill_diagonal(d, fill_value, wrap=wrap)
        else:
            d[(np.arange(d.shape[0]),) * d.ndim] = fill_value

    write(self, fill, told=True)
    return self


OPS = [
    Op("zero_", zero_, function=False, inplace_function=True),
    Op("fill_", fill_, function=False, inplace_function=True),
    Op("copy_", copy_, function=False),
    Op("fill_diagonal_", fill_diagonal_, function=False),
    # Tensor's own method (engine/_tensor.py); `torch.detach_(t)` calls it
    Op("detach_", Tensor.detach_, method=False, function=False, inplace_function=True),
]
