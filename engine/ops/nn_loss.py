"""Losses PyTorch records as one node: mse, nll, binary cross-entropy (plain and with logits),
smooth L1 and Huber. `reduction` is 'none', 'mean' or 'sum'.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, broadcast_error, float_kernel, record, unbroadcast, variant
from engine.ops.composed_grad import ComposedBackwardBackward
from engine.ops.nn_ops import Array, LinearBackwardBackward, const, linear_grad

# saved as PyTorch saves it: at::Reduction's integer (`MseLossBackward0._saved_reduction == 1`)
REDUCTION = {"none": 0, "mean": 1, "sum": 2}
REDUCTION_NAME = {v: k for k, v in REDUCTION.items()}


def _reduce(x: Array, reduction: str) -> Array:
    if reduction == "none":
        return x
    if reduction == "sum":
        return np.asarray(x.sum(), dtype=x.dtype)
    if reduction == "mean":
        return np.asarray(x.mean(), dtype=x.dtype)
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _reduce_t(loss: Tensor, reduction: str) -> Tensor:
    """`reduction` with engine ops (for the create_graph rebuilds)."""
    if reduction == "none":
        return loss
    return loss.mean() if reduction == "mean" else loss.sum()


def _scale(node: OpNode, g: Tensor, d: Array) -> Array:
    """Chain the loss gradient `g` (reduced or not) into the pointwise derivative `d`."""
    red = REDUCTION_NAME[node.saved("reduction")]
    gd = g._d
    if red == "mean":
        return (d * (gd / max(d.size, 1))).astype(d.dtype)
    return np.asarray((d * gd).astype(d.dtype))


class _PairLoss(OpNode):
    """A loss of (self, target) whose pointwise derivative is `deriv(x, t)` (sign flips for t)."""

    __slots__ = ()

    def deriv(self, x: Array, t: Array) -> Array:
        raise NotImplementedError

    def deriv_graph(self, z: Tensor) -> Tensor:
        """The derivative in z = self - target written with engine ops (for create_graph)."""
        raise NotImplementedError

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, tt = self.saved("self"), self.saved("target")
        if STATE.enabled and (g._rg or xt._rg or tt._rg):
            # create_graph: a differentiable gradient, so second derivatives match PyTorch's,
            # one node per input as PyTorch's (MseLossBackwardBackward0 over grad, self,
            # target; the target's over grad, target, self, the derivative being odd in z)
            from engine.ops.composed_grad import named_grad

            n = max(int(np.prod(np.broadcast_shapes(xt._d.shape, tt._d.shape))), 1)
            mean = REDUCTION_NAME[self.saved("reduction")] == "mean"

            def grad_of(gg: Tensor, a: Tensor, b: Tensor) -> Tensor:
                gz = self.deriv_graph(a - b) * gg
                return gz / n if mean else gz

            name = self._name[:-1] + "Backward0"
            params = {k: v for k, v in (self._saved or {}).items() if k not in ("self", "target")}
            sx = {"grad_output": g, "self": xt, "target": tt, **params}
            st = {"grad_output": g, "self": tt, "target": xt, **params}
            gx = named_grad(name, grad_of, (g, xt, tt), sx) if self.needs(0) else None
            gt = named_grad(name, grad_of, (g, tt, xt), st) if self.needs(1) else None
            return [
                None if gx is None else unbroadcast(gx, xt._d.shape),
                None if gt is None else unbroadcast(gt, tt._d.shape),
            ]
        x, t = xt._d, tt._d
        d = _scale(
            self, g, np.broadcast_to(self.deriv(x, t), np.broadcast_shapes(x.shape, t.shape))
        )
        gx = const(d) if self.needs(0) else None
        gt = const(-d) if self.needs(1) else None
        return [gx, gt]


def _check_same_size(x: Tensor, t: Tensor, name: str) -> None:
    if x._d.shape != t._d.shape:
        warn(
            f"Using a target size ({t.shape}) that is different to the input size ({x.shape}). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they "
            "have the same size.",
            UserWarning,
        )


def _bcast(x: Array, t: Array) -> list[Array]:
    """np.broadcast_arrays with PyTorch's error for shapes that do not broadcast."""
    try:
        return list(np.broadcast_arrays(x, t))
    except ValueError as e:
        raise broadcast_error(x, t, e) from None


def _floating_result(self: Tensor, target: Tensor, kernel: str) -> None:
    """PyTorch's refusal of a pair whose promoted type is integral (two LongTensors)."""
    rt = _dtype.result_type_of(self, target)
    if rt.category < 2:
        name = _dtype.SCALAR_NAMES[rt.name]
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{name}'")


def mse_loss(self: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean squared error."""
    _check_same_size(self, target, "mse")
    _floating_result(self, target, "mse_cpu")
    x, t = _bcast(self._d, target._d)
    out = _reduce(((x - t) ** 2).astype(self._d.dtype), reduction)
    saved = {"self": self, "target": target, "reduction": REDUCTION[reduction]}
    return record(MseLossBackward0, out, (self, target), saved)


class MseLossBackward0(_PairLoss):
    __slots__ = ()
    _name = "MseLossBackward0"

    def deriv(self, x: Array, t: Array) -> Array:
        return 2 * (x - t)

    def deriv_graph(self, z: Tensor) -> Tensor:
        return z * 2


def smooth_l1_loss(
    self: Tensor, target: Tensor, reduction: str = "mean", beta: float = 1.0
) -> Tensor:
    """Quadratic below `beta`, linear above (beta > 0)."""
    _floating_result(self, target, "smooth_l1_cpu")
    x, t = _bcast(self._d, target._d)
    z = np.abs(x - t)
    out = np.where(z < beta, 0.5 * z * z / beta, z - 0.5 * beta).astype(self._d.dtype)
    saved = {"self": self, "target": target, "reduction": REDUCTION[reduction], "beta": beta}
    return record(SmoothL1LossBackward0, _reduce(out, reduction), (self, target), saved)


class SmoothL1LossBackward0(_PairLoss):
    __slots__ = ()
    _name = "SmoothL1LossBackward0"

    def deriv(self, x: Array, t: Array) -> Array:
        beta = self.saved("beta")
        z = x - t
        return np.asarray(np.where(np.abs(z) < beta, z / beta, np.sign(z)))

    def deriv_graph(self, z: Tensor) -> Tensor:
        from engine.ops.pointwise import where

        beta = self.saved("beta")
        return where(z.abs() < beta, z / beta, z.sign())


def huber_loss(self: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0) -> Tensor:
    """Quadratic below `delta`, delta-scaled linear above."""
    rt, own = _dtype.result_type_of(self, target), _dtype.from_numpy(self._d.dtype)
    if rt.category > own.category:  # PyTorch's can_cast: no cast down a category
        names = (_dtype.SCALAR_NAMES[d.name] for d in (rt, own))
        # the loss is written into a tensor of the input's dtype
        raise RuntimeError(
            "result type {} can't be cast to the desired output type {}".format(*names)
        )
    _floating_result(self, target, "huber_cpu")
    x, t = _bcast(self._d, target._d)
    z = np.abs(x - t)
    out = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta)).astype(self._d.dtype)
    saved = {"self": self, "target": target, "reduction": REDUCTION[reduction], "delta": delta}
    return record(HuberLossBackward0, _reduce(out, reduction), (self, target), saved)


class HuberLossBackward0(_PairLoss):
    __slots__ = ()
    _name = "HuberLossBackward0"

    def deriv(self, x: Array, t: Array) -> Array:
        delta = self.saved("delta")
        z = x - t
        return np.where(np.abs(z) < delta, z, delta * np.sign(z))

    def deriv_graph(self, z: Tensor) -> Tensor:
        from engine.ops.pointwise import where

        delta = self.saved("delta")
        return where(z.abs() < delta, z, z.sign() * delta)


def binary_cross_entropy(
    self: Tensor, target: Tensor, weight: Tensor | None = None, reduction: str = "mean"
) -> Tensor:
    """-(t log x + (1 - t) log(1 - x)), logs clamped at -100 as PyTorch."""
    x, t = self._d, target._d
    if x.shape != t.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input size "
            f"({self.shape}) is deprecated. Please ensure they have the same size."
        )
    if t.dtype != x.dtype:
        from engine.ops.reduce_stats import _type_name

        raise RuntimeError(f"Found dtype {_type_name(t)} but expected {_type_name(x)}")
    float_kernel(self, "binary_cross_entropy")
    if x.size and (x.min() < 0 or x.max() > 1):
        raise RuntimeError("all elements of input should be between 0 and 1")
    lx = np.maximum(np.log(x), -100)
    l1x = np.maximum(np.log1p(-x), -100)
    out = -(t * lx + (1 - t) * l1x)
    if weight is not None:
        out = out * weight._d
    saved: dict[str, Any] = {
        "self": self,
        "target": target,
        "weight": weight,
        "reduction": REDUCTION[reduction],
    }
    return record(
        BinaryCrossEntropyBackward0, _reduce(out.astype(x.dtype), reduction), (self, target), saved
    )


class BinaryCrossEntropyBackward0(OpNode):
    __slots__ = ()
    _name = "BinaryCrossEntropyBackward0"
    _tensors = frozenset(("weight",))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, tt = self.saved("self"), self.saved("target")
        if STATE.enabled and (g._rg or xt._rg or tt._rg):
            return self._regrad(g, xt, tt)
        x, t = xt._d, tt._d
        # PyTorch divides by max(x (1 - x), eps) with eps = 1e-12
        d = (x - t) / np.maximum(x * (1 - x), 1e-12)
        w = self.saved("weight")
        if w is not None:
            d = d * w._d
        gx = const(_scale(self, g, d.astype(x.dtype)))
        gt = None
        if self.needs(1):  # weighted as the input's (ATen's binary_cross_entropy_target_backward)
            dt = np.log1p(-x) - np.log(x)
            gt = const(_scale(self, g, (dt if w is None else dt * w._d).astype(x.dtype)))
        return [gx, gt]

    def _regrad(self, g: Tensor, xt: Tensor, tt: Tensor) -> Grads:
        from engine.ops.composed_grad import regrad

        w, red = self.saved("weight"), REDUCTION_NAME[self.saved("reduction")]

        def fwd(x: Tensor, t: Tensor) -> Tensor:
            lx, l1x = x.log().clamp(min=-100), (1 - x).log().clamp(min=-100)
            loss = -(t * lx + (1 - t) * l1x)
            return _reduce_t(loss if w is None else loss * w, red)

        if tt._rg:  # PyTorch's target gradient is a composite of ops: not named here
            return regrad(self, g, [xt, tt], fwd)
        # the input's gradient: one BinaryCrossEntropyBackwardBackward0 over (grad, self, target)
        saved = {"grad_output": g, "self": xt, "target": tt, "weight": w}
        saved["reduction"] = self.saved("reduction")
        return regrad(self, g, [xt, tt], fwd, "BinaryCrossEntropyBackwardBackward0", (), saved)


# listed as _raw_saved_ even when undefined
variant(
    ComposedBackwardBackward, "BinaryCrossEntropyBackwardBackward0", _tensors=frozenset(("weight",))
)


def binary_cross_entropy_with_logits(
    self: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    pos_weight: Tensor | None = None,
    reduction: str = "mean",
) -> Tensor:
    """Sigmoid and binary cross-entropy fused (stable log-sum-exp form)."""
    x, t = self._d, target._d
    if x.shape != t.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size ({self.shape})"
        )
    float_kernel(self, "log_sigmoid_cpu")
    if _dtype.kind(t.dtype) in "iu":  # the loss is computed into a tensor of the target's dtype
        from engine.ops.reduce_stats import _type_name

        raise RuntimeError(
            f"result type {_type_name(x)} can't be cast to the desired output type {_type_name(t)}"
        )
    # (1 - t) x + lw * softplus(-x), with lw = 1 + (pos_weight - 1) t
    lw = 1 if pos_weight is None else 1 + (pos_weight._d - 1) * t
    out = (1 - t) * x + lw * np.logaddexp(0, -x)
    if weight is not None:
        out = out * weight._d
    saved: dict[str, Any] = {
        "self": self,
        "target": target,
        "weight": weight,
        "pos_weight": pos_weight,
    }
    saved["reduction"] = REDUCTION[reduction]
    out = _reduce(out.astype(x.dtype), reduction)
    return record(BinaryCrossEntropyWithLogitsBackward0, out, (self, target), saved)


class BinaryCrossEntropyWithLogitsBackward0(OpNode):
    __slots__ = ()
    _name = "BinaryCrossEntropyWithLogitsBackward0"
    _tensors = frozenset(("pos_weight", "weight"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt, tt = self.saved("self"), self.saved("target")
        if STATE.enabled and (g._rg or xt._rg or tt._rg):
            return self._regrad(g, xt, tt)
        x, t = xt._d, tt._d
        s = np.exp(-np.logaddexp(0, -x))
        pw, w = self.saved("pos_weight"), self.saved("weight")
        if pw is not None:
            d = (pw._d * t + 1 - t) * s - pw._d * t
            dt = (pw._d - 1) * np.logaddexp(0, -x) - x + 0 * t
        else:
            d = s - t
            dt = -x + 0 * t
        if w is not None:
            d, dt = d * w._d, dt * w._d
        gx = const(_scale(self, g, d.astype(x.dtype)))
        gt = const(_scale(self, g, dt.astype(x.dtype))) if self.needs(1) else None
        return [gx, gt]

    def _regrad(self, g: Tensor, xt: Tensor, tt: Tensor) -> Grads:
        from engine.ops.composed_grad import regrad
        from engine.ops.nn_ops import softplus

        if not tt._rg:
            return [self._input_grad(g, xt, tt), None]

        w, pw, red = (
            self.saved("weight"),
            self.saved("pos_weight"),
            REDUCTION_NAME[self.saved("reduction")],
        )

        def fwd(x: Tensor, t: Tensor) -> Tensor:
            lw = 1 if pw is None else (pw - 1) * t + 1
            loss = (1 - t) * x + lw * softplus(-x)
            return _reduce_t(loss if w is None else loss * w, red)

        return regrad(self, g, [xt, tt], fwd)

    def _input_grad(self, g: Tensor, x: Tensor, t: Tensor) -> Tensor | None:
        """The input's gradient as PyTorch's binary_cross_entropy_with_logits_backward composes
        it (a graph of its ops under create_graph, not one node)."""
        if not self.needs(0):
            return None
        w, pw = self.saved("weight"), self.saved("pos_weight")
        gi: Tensor
        if pw is not None:
            pt = pw.mul(t)
            gi = pt.add(1).sub(t).mul(x.sigmoid()).sub(pt)
        else:
            gi = x.sigmoid().sub(t)
        gi = gi.mul(g)
        if w is not None:
            gi = gi.mul(w)
        if self.saved("reduction") == REDUCTION["mean"]:
            gi = div_scalar(gi, x._d.size)
        return gi


_SCALAR_NAMES = {
    "torch.float32": "Float",
    "torch.float64": "Double",
    "torch.float16": "Half",
    "torch.bfloat16": "BFloat16",
    "torch.int32": "Int",
    "torch.int16": "Short",
    "torch.int8": "Char",
    "torch.bool": "Bool",
}


def nll_loss(
    self: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    reduction: str = "mean",
    ignore_index: int = -100,
) -> Tensor:
    """Negative log-likelihood of class indices: input (N, C, ...) or (C,), target (N, ...)."""
    x, t = self._d, target._d
    if x.ndim <= 2 and t.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if t.dtype not in (np.int64, np.uint8):
        name = _SCALAR_NAMES.get(str(target.dtype), str(target.dtype))
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {name}")
    if x.ndim == 1:
        x2, t2 = x[None, :, None], t.reshape(1, 1)
    else:
        if x.shape[0] != t.shape[0]:
            raise ValueError(
                f"Expected input batch_size ({x.shape[0]}) to match target batch_size "
                f"({t.shape[0]})."
            )
        x2, t2 = x.reshape(x.shape[0], x.shape[1], -1), t.reshape(t.shape[0], -1)
    c = x2.shape[1]
    valid = t2 != ignore_index
    safe = np.where(valid, t2, 0)
    if safe.size and (safe.min() < 0 or safe.max() >= c):
        raise IndexError(
            f"Target {int(safe.max() if safe.max() >= c else safe.min())} is out of bounds."
        )
    w = np.ones(c, x.dtype) if weight is None else weight._d.astype(x.dtype)
    wt = np.where(valid, w[safe], 0).astype(x.dtype)
    picked = np.take_along_axis(x2, safe[:, None, :], axis=1)[:, 0, :]
    losses = -picked * wt
    total_w = wt.sum()
    if reduction == "none":
        out = losses.reshape(t.shape) if x.ndim > 1 else losses.reshape(())
    elif reduction == "sum":
        out = np.asarray(losses.sum(), x.dtype)
    elif reduction == "mean":
        out = np.asarray(losses.sum() / total_w, x.dtype)
    else:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    saved: dict[str, Any] = {
        "self": self,
        "target": target,
        "weight": weight,
        "reduction": REDUCTION[reduction],
    }
    saved.update({"ignore_index": ignore_index, "total_weight": np.asarray(total_w, x.dtype)})
    node = NllLoss2DBackward0 if x.ndim == 4 else NllLossBackward0
    return record(node, out, (self,), saved)


class NllLossBackward0(OpNode):
    __slots__ = ()
    _name = "NllLossBackward0"
    _tensors = frozenset(("total_weight", "weight"))

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x, t = self.saved("self")._d, self.saved("target")._d
        weight = self.saved("weight")
        x2 = x[None, :, None] if x.ndim == 1 else x.reshape(x.shape[0], x.shape[1], -1)
        t2 = t.reshape(x2.shape[0], -1)
        valid = t2 != self.saved("ignore_index")
        safe = np.where(valid, t2, 0)
        w = np.ones(x2.shape[1], x.dtype) if weight is None else weight._d.astype(x.dtype)
        wt = np.where(valid, w[safe], 0).astype(x.dtype)
        red = REDUCTION_NAME[self.saved("reduction")]
        total = self.saved("total_weight")
        gshape = g._d.shape

        def scatter(gd: Array) -> Array:
            gd = gd.reshape(t2.shape) if red == "none" else gd
            coef = np.where(valid, -wt * gd, 0)  # ignored targets get +0, not -0
            if red == "mean":
                coef = coef / total
            out = np.zeros_like(x2)
            np.put_along_axis(out, safe[:, None, :], coef[:, None, :].astype(x.dtype), axis=1)
            return np.asarray(out.reshape(x.shape))

        def gather(gg: Array) -> Array:  # the adjoint, for create_graph's second derivative
            picked = np.take_along_axis(gg.reshape(x2.shape), safe[:, None, :], axis=1)[:, 0]
            coef = np.where(valid, -wt * picked, 0)
            if red == "none":
                return np.asarray(coef, x.dtype).reshape(gshape)
            total_sum = coef.sum() / total if red == "mean" else coef.sum()
            return np.asarray(total_sum, x.dtype).reshape(gshape)

        # linear in grad_output: under create_graph NllLossBackwardBackward0, as PyTorch's
        saved = {k: self.saved(k) for k in ("ignore_index", "reduction", "target", "weight")}
        return [linear_grad(self._name, g, scatter, gather, self.saved("self"), saved=saved)]


class NllLoss2DBackward0(NllLossBackward0):
    __slots__ = ()
    _name = "NllLoss2DBackward0"


# the double backward saves target and weight (listed as _raw_saved_ even when undefined)
for _double in ("NllLossBackwardBackward0", "NllLoss2DBackwardBackward0"):
    variant(LinearBackwardBackward, _double, _tensors=frozenset(("target", "weight")))


# reduce.py and reduce_stats.py import these two from here
from engine.ops.scalar_overloads import div_scalar, mul_scalar  # noqa: E402

__all__ = ["div_scalar", "mul_scalar"]
