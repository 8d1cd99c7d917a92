"""Shape ops: view, reshape, expand and friends (and `broadcast_shapes`). Views share storage
and version counter."""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from engine._layout import contiguous_format
from engine._tensor import Tensor, _wrap_dim
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.table import Op


def as_view(out: Tensor, base: Tensor, view_fn: Any) -> Tensor:
    """Mark `out` as a view of `base`: shared version counter, replayable view function."""
    out._ver = base._ver
    root = base._base if base._base is not None else base
    out._base = root
    # the root keeps weak references to its views: an in-place op on the root or on any
    # view regenerates the others' grad_fn (AsStridedBackward0), as PyTorch does on access
    views = root.__dict__.get("_views")
    if views is None:
        views = root.__dict__["_views"] = []
    elif len(views) >= 64 and not len(views) & (len(views) - 1):
        views[:] = [r for r in views if r() is not None]
    if STATE.enabled:  # views made under no_grad never take the base's history
        views.append(weakref.ref(out))
    elif base._rg:  # ... and PyTorch refuses to modify them in place once grad mode is back
        out.__dict__["_nograd_view"] = True
        # PyTorch: such a view is a leaf that requires grad (its grads accumulate on itself)
        out._rg = True
    prev = base._view_fn
    out._view_fn = view_fn if prev is None else (lambda a, p=prev, f=view_fn: f(p(a)))
    return out


def kw_arg(args: tuple[Any, ...], kw: dict[str, Any], name: str) -> tuple[Any, ...]:
    """`x.flip(dims=[0])`: PyTorch also takes the sizes/dims of these methods by keyword."""
    if kw:
        if args or set(kw) - {name, "implicit"}:
            bad = next(iter(set(kw) - {name, "implicit"}), name)
            raise TypeError(f"got an unexpected keyword argument '{bad}'")
        return (kw[name],) if name in kw else args
    return args


def _shape_arg(shape: Any) -> tuple[int, ...]:
    if len(shape) == 1 and isinstance(shape[0], list | tuple):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _infer(shape: tuple[int, ...], numel: int) -> tuple[int, ...]:
    if -1 in shape:
        if shape.count(-1) > 1:
            raise RuntimeError("only one dimension can be inferred")
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    n = 1
    for s in shape:
        n *= s
    if n != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def view(self: Tensor, *shape: Any, **kw: Any) -> Tensor:
    """Same storage, new shape (the tensor must be viewable: here, contiguous)."""
    if kw:
        shape = kw_arg(shape, kw, "size")
    if len(shape) == 1 and not isinstance(shape[0], int | list | tuple):
        from engine.ops.convert import view_dtype

        return view_dtype(self, shape[0])
    shp = _infer(_shape_arg(shape), self._d.size)
    if not self._d.flags.c_contiguous and self._d.ndim > 1 and self._d.size > 1:
        try:
            data = self._d.view()
            data.shape = shp
        except AttributeError:
            raise RuntimeError(
                "view size is not compatible with input tensor's size and stride (at least one "
                "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
            ) from None
    else:
        data = self._d.reshape(shp)
    out = record(ViewBackward0, data, (self,), shapes=(self._d.shape,))
    return as_view(out, self, lambda a, s=shp: a.reshape(s))


class ViewBackward0(OpNode):
    __slots__ = ()
    _name = "ViewBackward0"
    _shape_saved = {"self_sym_sizes": 0}

    def apply(self, grads: Grads) -> Grads:
        assert self._shapes is not None
        return [reshape(grads[0], self._shapes[0])]  # type: ignore[arg-type]


def reshape(self: Tensor, *shape: Any, **kw: Any) -> Tensor:
    """A view when the layout allows, else a copy (UnsafeViewBackward0 over CloneBackward0)."""
    if kw:
        shape = kw_arg(shape, kw, "shape")
    shp = _infer(_shape_arg(shape), self._d.size)
    if self._d.flags.c_contiguous or self._d.size <= 1:
        return view(self, shp)
    data = self._d.view()
    try:  # NumPy refuses exactly when the strides cannot express the new shape
        data.shape = shp
    except AttributeError:
        pass
    else:  # a strided view of a non-contiguous tensor: PyTorch's `_reshape_alias`
        saved = {"self_sym_sizes": self._d.shape}
        out = record(ReshapeAliasBackward0, data, (self,), saved, shapes=(self._d.shape,))
        return as_view(out, self, lambda a, s=shp: a.reshape(s))
    from engine.ops.tensor_shape import clone

    c = clone(self, memory_format=contiguous_format)
    out = record(UnsafeViewBackward0, c._d.reshape(shp), (c,), shapes=(c._d.shape,))
    return out


class ReshapeAliasBackward0(OpNode):
    __slots__ = ()
    _name = "ReshapeAliasBackward0"

    def apply(self, grads: Grads) -> Grads:
        assert self._shapes is not None
        return [reshape(grads[0], self._shapes[0])]  # type: ignore[arg-type]


class UnsafeViewBackward0(OpNode):
    __slots__ = ()
    _name = "UnsafeViewBackward0"
    _shape_saved = {"self_sym_sizes": 0}

    def apply(self, grads: Grads) -> Grads:
        assert self._shapes is not None
        return [reshape(grads[0], self._shapes[0])]  # type: ignore[arg-type]


def expand(self: Tensor, *sizes: Any, **kw: Any) -> Tensor:
    """Broadcast to a larger shape without copying (-1 keeps a dimension)."""
    if kw:
        sizes = kw_arg(sizes, kw, "size")
    shp = _shape_arg(sizes)
    nd = len(shp)
    if nd < self._d.ndim:
        raise RuntimeError(
            f"expand(torch.FloatTensor{{{list(self._d.shape)}}}, size={list(shp)}): the number of "
            "sizes provided (" + str(nd) + ") must be greater or equal to the number of dimensions "
            f"in the tensor ({self._d.ndim})"
        )
    lead = nd - self._d.ndim
    target = []
    for i, s in enumerate(shp):
        if s == -1:
            if i < lead:
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                    f"non-existing dimension {i}"
                )
            s = self._d.shape[i - lead]
        target.append(s)
    tshape = tuple(target)
    if tshape == self._d.shape:
        data = self._d.view()
    else:
        for i, s in reversed(list(enumerate(self._d.shape))):  # PyTorch checks from the end
            if s != 1 and s != tshape[i + lead]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({tshape[i + lead]}) must match the existing "
                    f"size ({s}) at non-singleton dimension {i + lead}.  Target sizes: "
                    f"{list(shp)}.  Tensor sizes: {list(self._d.shape)}"
                )
        data = np.broadcast_to(self._d, tshape)
    out = record(ExpandBackward0, data, (self,), shapes=(self._d.shape,))
    return as_view(out, self, lambda a, s=tshape: np.broadcast_to(a, s))


class ExpandBackward0(OpNode):
    __slots__ = ()
    _name = "ExpandBackward0"
    _shape_saved = {"self_sym_sizes": 0}

    def apply(self, grads: Grads) -> Grads:
        from engine.ops._core import unbroadcast

        assert self._shapes is not None
        return [unbroadcast(grads[0], self._shapes[0])]  # type: ignore[arg-type]


def _view_op(cls: type[OpNode], self: Tensor, data: Any, fn: Any, saved: Any = None) -> Tensor:
    """Record a view op: the output shares `self`'s memory and version counter."""
    out = record(cls, data, (self,), saved, shapes=(self._d.shape,))
    return as_view(out, self, fn)


def _back_to(g: Any, node: OpNode) -> Tensor:
    """The gradient reshaped to the node's input shape."""
    assert node._shapes is not None
    return reshape(g, node._shapes[0])


def flatten(self: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims `start_dim..end_dim` (a view when the layout allows, else a copy)."""
    nd = self._d.ndim
    if nd == 0:
        return reshape(self, (1,))
    s, e = _wrap_dim(start_dim, nd), _wrap_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self
    shp = self._d.shape
    n = 1
    for d in shp[s : e + 1]:
        n *= d
    return reshape(self, (*shp[:s], n, *shp[e + 1 :]))


def unflatten(self: Tensor, dim: int, sizes: Any) -> Tensor:
    """Split dim `dim` into `sizes` (one -1 allowed)."""
    d = _wrap_dim(dim, self._d.ndim)
    shp = self._d.shape
    want = tuple(int(x) for x in sizes)
    try:
        inner = _infer(want, shp[d]) if shp[d] else tuple(sizes)
    except RuntimeError as e:
        if "inferred" in str(e):
            raise
        raise RuntimeError(
            f"unflatten: Provided sizes {list(want)} don't multiply up to the size of dim {d} "
            f"({shp[d]}) in the input tensor"
        ) from None
    return view(self, shp[:d] + tuple(inner) + shp[d + 1 :])


def ravel(self: Tensor) -> Tensor:
    """Flatten to 1-D (a view when contiguous)."""
    if self._d.flags.c_contiguous:
        return view(self, -1)
    from engine.ops.tensor_shape import clone

    return view(clone(self, memory_format=contiguous_format), -1)


def view_as(self: Tensor, other: Tensor) -> Tensor:
    return view(self, other._d.shape)


def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return reshape(self, other._d.shape)


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return expand(self, other._d.shape)


def squeeze(self: Tensor, dim: Any = None) -> Tensor:
    """Drop size-1 dims (all, one, or a tuple of them)."""
    return squeeze_as(self, dim, (SqueezeBackward0, SqueezeBackward1, SqueezeBackward2))


def squeeze_as(self: Tensor, dim: Any, nodes: tuple[type[OpNode], ...]) -> Tensor:
    """`squeeze` recorded as `nodes[0]` (all dims), `nodes[1]` (one) or `nodes[2]` (several):
    the in-place `squeeze_` passes its own (engine/ops/transpose.py)."""
    shp = self._d.shape
    nd = self._d.ndim
    if dim is None:
        keep = tuple(s for s in shp if s != 1)
        return _view_op(nodes[0], self, self._d.reshape(keep), _reshaper(keep))
    if isinstance(dim, int):
        d = _wrap_dim(dim, nd)
        keep = shp[:d] + shp[d + 1 :] if nd and shp[d] == 1 else shp
        fn = _reshaper(keep)
        return _view_op(nodes[1], self, self._d.reshape(keep), fn, {"dim": d})
    dims = {_wrap_dim(x, nd) for x in dim}
    keep = tuple(s for i, s in enumerate(shp) if not (i in dims and s == 1))
    saved = {"dim": tuple(sorted(dims))}
    return _view_op(nodes[2], self, self._d.reshape(keep), _reshaper(keep), saved)


def _reshaper(shape: tuple[int, ...]) -> Any:
    return lambda a: a.reshape(shape)


class SqueezeBackward0(OpNode):
    __slots__ = ()
    _name = "SqueezeBackward0"
    _shape_saved = {"self_sym_sizes": 0}

    def apply(self, grads: Grads) -> Grads:
        return [_back_to(grads[0], self)]


class SqueezeBackward1(SqueezeBackward0):
    __slots__ = ()
    _name = "SqueezeBackward1"


class SqueezeBackward2(SqueezeBackward0):
    __slots__ = ()
    _name = "SqueezeBackward2"


def unsqueeze(self: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dim at `dim`."""
    return unsqueeze_as(self, dim, UnsqueezeBackward0)


def unsqueeze_as(self: Tensor, dim: int, node: type[OpNode]) -> Tensor:
    """`unsqueeze` recorded as `node` (the in-place `unsqueeze_` passes its own)."""
    d = _wrap_dim(dim, self._d.ndim + 1)
    shp = (*self._d.shape[:d], 1, *self._d.shape[d:])
    return _view_op(node, self, self._d.reshape(shp), _reshaper(shp), {"dim": d})


class UnsqueezeBackward0(OpNode):
    __slots__ = ()
    _name = "UnsqueezeBackward0"

    def apply(self, grads: Grads) -> Grads:
        return [squeeze(grads[0], self.saved("dim"))]  # type: ignore[arg-type]


def broadcast_shapes(*shapes: Any) -> Any:
    """The shape all `shapes` broadcast to, with PyTorch's error naming the first misfit."""
    from engine._size import Size

    out: list[int] = []
    for i, s in enumerate(shapes):
        shape = (s,) if isinstance(s, int) else tuple(s)
        out = [1] * (len(shape) - len(out)) + out
        for k in range(1, len(shape) + 1):
            n, m = shape[-k], out[-k]
            if n != m and n != 1 and m != 1:
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {-k}! Mismatching "
                    f"argument at index {i} had {shape}; but expected shape should be "
                    f"broadcastable to {out}"
                )
            out[-k] = m if n == 1 else n
    return Size(out)


# re-exported: other op modules import these from here (defined in ops/transpose.py)
from engine.ops.transpose import movedim, permute, swapaxes, swapdims, t, transpose  # noqa: E402

__all__ = ["movedim", "permute", "swapaxes", "swapdims", "t", "transpose"]

OPS = [
    Op("view", view, function=False),
    Op("reshape", reshape),
    Op("expand", expand, function=False),
    Op("flatten", flatten),
    Op("unflatten", unflatten),
    Op("ravel", ravel),
    Op("view_as", view_as, function=False),
    Op("reshape_as", reshape_as, function=False),
    Op("expand_as", expand_as, function=False),
    Op("squeeze", squeeze),
    Op("unsqueeze", unsqueeze),
    Op("broadcast_shapes", broadcast_shapes, method=False),
]
