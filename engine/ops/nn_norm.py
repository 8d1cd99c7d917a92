"""Normalisation primitives: native batch norm, layer norm and group norm."""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, write
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, acc_dtype, record
from engine.ops.composed_grad import ComposedBackwardBackward, regrad
from engine.ops.nn_ops import Array, const
from engine.ops.op_node import variant


def _chan(v: Array, ndim: int) -> Array:
    """A per-channel vector shaped to broadcast over (N, C, ...)."""
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def _norm_grad(g: Array, xhat: Array, invstd: Array, axes: tuple[int, ...]) -> Array:
    """d/dx of (x - mean) * invstd over `axes`, for the incoming (already weighted) gradient."""
    gm = g.mean(axis=axes, keepdims=True)
    gxm = (g * xhat).mean(axis=axes, keepdims=True)
    return np.asarray((invstd * (g - gm - xhat * gxm)).astype(g.dtype))


def _csum(a: Array, b: Array | None = None) -> Array:
    """Per-channel sum over every axis but 1 (of a * b when b is given), via einsum."""
    n, c = a.shape[0], a.shape[1]
    a3 = a.reshape(n, c, -1)
    if b is None:
        return np.asarray(np.einsum("nck->c", a3))
    return np.asarray(np.einsum("nck,nck->c", a3, b.reshape(n, c, -1)))


def native_batch_norm(
    x: Tensor,
    weight: Tensor | None,
    bias: Tensor | None,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    training: bool,
    momentum: float,
    eps: float,
) -> Tensor:
    """Batch norm over all axes but 1; updates running stats in place when training."""
    a = x._d
    nd, dt = a.ndim, a.dtype
    m = a.size // a.shape[1]
    if training:
        mean = (_csum(a) / m).astype(dt)
        centred = a - _chan(mean, nd)
        var = (_csum(centred, centred) / m).astype(dt)
        if running_mean is not None and running_var is not None:
            write(running_mean, lambda rm: _decay_into(rm, momentum, mean))
            write(running_var, lambda rv: _decay_into(rv, momentum, var * (m / max(m - 1, 1))))
    else:
        assert running_mean is not None and running_var is not None
        mean, var = running_mean._d, running_var._d
    # training: ATen's stats pass works in double (acc_type); eval: in the input's opmath type
    wide = var.astype(np.float64) if training else var
    invstd = (1 / np.sqrt(wide + eps)).astype(dt)
    # ATen's CPU kernel: one pass x * alpha + beta, alpha = invstd * w, beta = b - mean * alpha
    # (so a value at the mean need not come out exactly 0, as in PyTorch)
    alpha = (invstd if weight is None else invstd * weight._d).astype(dt)
    beta = -(mean.astype(dt) * alpha) if bias is None else bias._d - mean.astype(dt) * alpha
    out = _fma(a, _chan(alpha, nd), _chan(beta.astype(dt), nd))
    saved: dict[str, Any] = {"input": x, "weight": weight, "running_mean": running_mean}
    saved.update({"running_var": running_var, "training": training, "eps": eps})
    saved.update({"result1": mean.astype(dt), "result2": invstd})
    return record(NativeBatchNormBackward0, out.astype(dt, copy=False), (x, weight, bias), saved)


def _fma(a: Array, b: Array, c: Array) -> Array:
    """a * b + c rounded once, as the vectorised kernel's fused multiply-add (float32 products
    are exact in float64; other dtypes are computed plainly)."""
    if a.dtype != np.float32:
        return a * b + c
    wide = a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)
    return wide.astype(np.float32)


class NativeBatchNormBackward0(OpNode):
    __slots__ = ()
    _name = "NativeBatchNormBackward0"
    _tensors = frozenset(("running_mean", "running_var", "weight"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, w = self.saved("input"), self.saved("weight")
        if _wants_graph(g, xt, w):
            return self._regrad(g, xt, w)
        a, gd = xt._d, g._d
        nd, dt = a.ndim, a.dtype
        m = a.size // a.shape[1]
        mean, invstd = self.saved("result1"), self.saved("result2")
        wv = np.ones_like(invstd) if w is None else w._d
        sg = _csum(gd)
        gxh = invstd * (_csum(gd, a) - mean * sg)  # sum(g * xhat) per channel
        gx = gw = gb = None
        if self.needs(0):
            k = wv * invstd
            if self.saved("training"):
                # w invstd (g - mean(g) - xhat mean(g xhat)), as g * A + x * B + C per channel
                bco = -k * invstd * gxh / m
                cco = -k * sg / m - bco * mean
                gxa = gd * _chan(k.astype(dt), nd)
                gxa += a * _chan(bco.astype(dt), nd)
                gxa += _chan(cco.astype(dt), nd)
                gx = const(gxa)
            else:
                gx = const((gd * _chan(k.astype(dt), nd)).astype(dt))
        if self.needs(1):
            gw = const(gxh.astype(dt))
        if self.needs(2):
            gb = const(sg.astype(dt))
        return [gx, gw, gb]

    def _regrad(self, g: Tensor, xt: Tensor, w: Tensor | None) -> Grads:
        nd = xt._d.ndim
        shape = (1, -1) + (1,) * (nd - 2)
        axes = (0, *range(2, nd))
        b = _bias_of(self, 2, xt)
        if self.saved("training"):
            eps = self.saved("eps")
            fwd = lambda x, w_, b_: _affine(_normalised(x, axes, eps), w_, b_, shape)  # noqa: E731
        else:
            mean = const(self.saved("result1").reshape(shape))
            inv = const(self.saved("result2").reshape(shape))
            fwd = lambda x, w_, b_: _affine((x - mean) * inv, w_, b_, shape)  # noqa: E731
        # PyTorch's edges: grad_output, input, weight, then its saved statistics
        saved = {"eps": self.saved("eps"), "grad_out": g, "input": xt}
        saved.update({k: self.saved(k) for k in ("running_mean", "running_var", "weight")})
        saved["save_invstd"] = const(self.saved("result2"))
        saved["save_mean"] = const(self.saved("result1"))
        saved["train"] = self.saved("training")
        name, edges = "NativeBatchNormBackwardBackward0", (0, 1, 2, -1, -1)
        return regrad(self, g, [xt, w, b], fwd, name, edges, saved)


def _decay_into(running: Array, momentum: float, new: Array) -> None:
    """A running statistic's update in place: `running = (1 - momentum) * running +
    momentum * new`."""
    running *= 1 - momentum
    running += momentum * new


def _bias_of(node: OpNode, i: int, like: Tensor) -> Tensor | None:
    """A stand-in for the bias input: only its presence matters to the gradients."""
    if node.next_functions[i][0] is None:
        return None
    from engine._tensor import make

    n = like._d.shape[1] if node._name != "NativeLayerNormBackward0" else None
    shape = (
        (n,)
        if n is not None
        else like._d.shape[like._d.ndim - len(node.saved("normalized_shape")) :]
    )
    return make(np.zeros(shape, like._d.dtype), True, None, 0)


def native_layer_norm(
    x: Tensor, shape: tuple[int, ...], weight: Tensor | None, bias: Tensor | None, eps: float
) -> Tensor:
    """Normalise over the trailing `shape` dimensions."""
    a = x._d
    if a.shape[a.ndim - len(shape) :] != tuple(shape):
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*, {', '.join(str(s) for s in shape)}], but got input of size{list(a.shape)}"
        )
    axes = tuple(range(a.ndim - len(shape), a.ndim))
    low = a.dtype
    acc = acc_dtype(low)  # bfloat16: statistics and result in float32, each rounded once
    if acc is not None:
        a = a.astype(acc)
    mean = a.mean(axis=axes, keepdims=True)
    invstd = (1 / np.sqrt(a.var(axis=axes, keepdims=True) + eps)).astype(a.dtype)
    out = (a - mean) * invstd
    if weight is not None:
        out = out * weight._d.astype(out.dtype, copy=False)
    if bias is not None:
        out = out + bias._d.astype(out.dtype, copy=False)
    if acc is not None:
        mean, invstd = mean.astype(low), invstd.astype(low)
    saved = {"input": x, "normalized_shape": list(shape), "weight": weight, "bias": bias}
    saved.update({"result1": mean, "result2": invstd})
    # PyTorch does not save eps; create_graph needs it
    keep = {"eps": eps}
    return record(NativeLayerNormBackward0, out.astype(low), (x, weight, bias), saved, keep=keep)


class NativeLayerNormBackward0(OpNode):
    __slots__ = ()
    _name = "NativeLayerNormBackward0"
    _tensors = frozenset(("bias", "weight"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, w, b = self.saved("input"), self.saved("weight"), self.saved("bias")
        if _wants_graph(g, xt, w, b):
            nd, k = xt._d.ndim, len(self.saved("normalized_shape"))
            axes, eps = tuple(range(nd - k, nd)), self.__dict__["eps"]
            wshape = tuple(xt._d.shape[nd - k :])
            fwd = lambda x, w_, b_: _affine(_normalised(x, axes, eps), w_, b_, wshape)  # noqa: E731
            # PyTorch's edges: grad_output, input, its saved mean and rstd, weight, bias
            name = "NativeLayerNormBackwardBackward0"
            saved = {"grad_out": g, "input": xt, "mean": const(self.saved("result1"))}
            saved["normalized_shape"] = self.saved("normalized_shape")
            saved.update({"rstd": const(self.saved("result2")), "weight": w})
            return regrad(self, g, [xt, w, b], fwd, name, (0, 1, -1, -1, 2, 3), saved)
        a, gd = xt._d, g._d
        k = len(self.saved("normalized_shape"))
        axes = tuple(range(a.ndim - k, a.ndim))
        lead = tuple(range(a.ndim - k))
        xhat = (a - self.saved("result1")) * self.saved("result2")
        w = self.saved("weight")
        gx = gw = gb = None
        if self.needs(0):
            gin = gd if w is None else gd * w._d
            gx = const(_norm_grad(gin, xhat, self.saved("result2"), axes))
        if self.needs(1):
            gw = const((gd * xhat).sum(axis=lead).astype(a.dtype))
        if self.needs(2):
            gb = const(gd.sum(axis=lead).astype(a.dtype))
        return [gx, gw, gb]


def native_group_norm(
    x: Tensor, groups: int, weight: Tensor | None, bias: Tensor | None, eps: float
) -> Tensor:
    """Normalise each of `groups` channel groups of every sample."""
    a = x._d
    n, c = a.shape[0], a.shape[1]
    if c % groups:
        raise RuntimeError(
            f"Expected number of channels in input to be divisible by num_groups, but got input "
            f"of shape {list(a.shape)} and num_groups={groups}"
        )
    ag = a.reshape(n, groups, -1)
    mean = ag.mean(axis=2, keepdims=True)
    invstd = (1 / np.sqrt(ag.var(axis=2, keepdims=True) + eps)).astype(a.dtype)
    out = ((ag - mean) * invstd).reshape(a.shape)
    if weight is not None:
        out = out * _chan(weight._d, a.ndim)
    if bias is not None:
        out = out + _chan(bias._d, a.ndim)
    hxw = a.size // (n * c) if n * c else 0
    saved = {"input": x, "weight": weight, "group": groups, "N": n, "C": c, "HxW": hxw}
    # saved with PyTorch's (N, group) shape
    saved.update({"result1": mean.reshape(n, groups), "result2": invstd.reshape(n, groups)})
    saved["eps"] = eps
    return record(NativeGroupNormBackward0, out.astype(a.dtype), (x, weight, bias), saved)


class NativeGroupNormBackward0(OpNode):
    __slots__ = ()
    _name = "NativeGroupNormBackward0"
    _tensors = frozenset(("weight",))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, w = self.saved("input"), self.saved("weight")
        if _wants_graph(g, xt, w):
            shape, groups = xt._d.shape, self.saved("group")
            cshape = (1, -1) + (1,) * (len(shape) - 2)
            eps = self.saved("eps")

            def fwd(x: Tensor, w_: Tensor | None, b_: Tensor | None) -> Tensor:
                y = _normalised(x.reshape(shape[0], groups, -1), (2,), eps).reshape(shape)
                return _affine(y, w_, b_, cshape)

            return regrad(self, g, [xt, w, _bias_of(self, 2, xt)], fwd)
        a, gd = xt._d, g._d
        n, groups, nd = a.shape[0], self.saved("group"), a.ndim
        mean = self.saved("result1").reshape(n, groups, 1)
        invstd = self.saved("result2").reshape(n, groups, 1)
        xhat = ((a.reshape(n, groups, -1) - mean) * invstd).reshape(a.shape)
        w = self.saved("weight")
        axes = (0, *tuple(range(2, nd)))
        gx = gw = gb = None
        if self.needs(0):
            gin = gd if w is None else gd * _chan(w._d, nd)
            gg = _norm_grad(gin.reshape(n, groups, -1), xhat.reshape(n, groups, -1), invstd, (2,))
            gx = const(gg.reshape(a.shape))
        if self.needs(1):
            gw = const((gd * xhat).sum(axis=axes).astype(a.dtype))
        if self.needs(2):
            gb = const(gd.sum(axis=axes).astype(a.dtype))
        return [gx, gw, gb]


# saved tensors PyTorch lists (as _raw_saved_) even when undefined (no weight, no running stats)
variant(
    ComposedBackwardBackward,
    "NativeBatchNormBackwardBackward0",
    _tensors=frozenset(("running_mean", "running_var", "weight")),
)
variant(
    ComposedBackwardBackward, "NativeLayerNormBackwardBackward0", _tensors=frozenset(("weight",))
)


def _affine(y: Tensor, w: Tensor | None, b: Tensor | None, shape: tuple[int, ...]) -> Tensor:
    if w is not None:
        y = y * w.reshape(shape)
    if b is not None:
        y = y + b.reshape(shape)
    return y


def _normalised(x: Tensor, axes: tuple[int, ...], eps: float) -> Tensor:
    mean = x.mean(axes, keepdim=True)
    c = x - mean
    return c * ((c * c).mean(axes, keepdim=True) + eps).rsqrt()


def _wants_graph(g: Tensor, *ts: Tensor | None) -> bool:
    return STATE.enabled and (g._rg or any(t is not None and t._rg for t in ts))
