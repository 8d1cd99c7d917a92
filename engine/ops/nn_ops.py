"""nn primitives: activations PyTorch records as one node, embedding, and the helpers the
other nn op files share (`const`, `linear_grad`).

Backward formulas run on ndarrays; under `create_graph` they record a differentiable
gradient instead (activations: `<Name>BackwardBackward0` with the second derivative; maps
linear in the incoming gradient: `linear_grad`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, float_kernel, record, variant
from engine.ops.scalar_overloads import add_scalar

Array = np.ndarray[Any, Any]


def const(a: Array) -> Tensor:
    """An ndarray as an untracked tensor."""
    return make(a, False, None, 0)


def _erf(x: Array) -> Array:
    # numpy has no erf; math.erf per element is exact and the arrays here are small
    return np.vectorize(math.erf, otypes=[x.dtype])(x) if x.size else x.copy()


class _Act(OpNode):
    """An activation whose gradient is `grad * derivative(self)`.

    Under `create_graph` the gradient is itself an op (PyTorch's `<Name>BackwardBackward0`)
    whose backward uses `deriv2`, so second derivatives match PyTorch's.
    """

    __slots__ = ()
    _no_double = ""  # PyTorch's op name when it has no second derivative
    _double = ""  # PyTorch's name of the backward's node when not `<Name>BackwardBackward0`
    # piecewise linear: the backward's node keeps no grad_output (its second derivative is 0)
    _piecewise = False

    def double_saved(self, g: Tensor, x: Tensor) -> dict[str, Any]:
        """What the backward's node saves, as PyTorch's `<Name>BackwardBackward0` does: the
        activation's own arguments (`approximate`, `beta`...) beside `self` and grad_output."""
        saved = self._saved or {}
        params = {k: v for k, v in saved.items() if k not in ("self", "buffer")}
        return {"self": x, **params} if self._piecewise else {"grad_output": g, "self": x, **params}

    def composite(self, g: Tensor, x: Tensor) -> Tensor | None:
        """The gradient as recorded ops, for activations whose ATen backward is a composite
        (under create_graph PyTorch's graph shows those ops, not a BackwardBackward node)."""
        return None

    def deriv(self, x: Array) -> Array:
        raise NotImplementedError

    def deriv2(self, x: Array) -> Array:
        return np.zeros_like(x)

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        xt = self.saved("self")
        x = xt._d
        d = self.deriv(x).astype(x.dtype, copy=False)
        if not (STATE.enabled and (g._rg or xt._rg)):
            return [const(g._d * d)]
        composed = self.composite(g, xt)
        if composed is not None:
            return [composed]
        # a backward PyTorch cannot differentiate (NotImplemented) saves nothing
        saved = None if self._no_double else self.double_saved(g, xt)
        data = (g._d * d).astype(x.dtype)
        # PyTorch's name, e.g. GeluBackwardBackward0; one it cannot differentiate: NotImplemented
        no_double = "torch::autograd::NotImplemented" if self._no_double else ""
        name = no_double or self._double or self._name[:-1] + "Backward0"
        node = variant(ActBackwardBackward, name)
        return [record(node, data, (g, xt), saved, keep={"act": self})]


class ActBackwardBackward(OpNode):
    """The backward of an activation's backward: d/dgrad = f'(x), d/dx = grad * f''(x). Each
    activation records its `variant`, named as PyTorch names it (`GeluBackwardBackward0`)."""

    __slots__ = ()
    _name = "ActivationBackwardBackward0"
    _listed = False

    def apply(self, grads: Grads) -> Grads:
        gg = grads[0]
        assert gg is not None
        act: _Act = self.__dict__["act"]
        if act._no_double:
            raise RuntimeError(f"derivative for aten::{act._no_double} is not implemented")
        saved = self._saved or {}
        x = self.saved("self_or_result" if "self_or_result" in saved else "self")._d
        out: Grads = [None, None]
        if self.needs(0):
            out[0] = gg * const(act.deriv(x).astype(x.dtype, copy=False))
        if self.needs(1):
            if act._piecewise:
                out[1] = gg * const(np.zeros_like(x))
            else:
                g = self.saved("grad_output")
                out[1] = gg * g * const(act.deriv2(x).astype(x.dtype, copy=False))
        return out


def gelu(self: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit (exact, or PyTorch's tanh approximation)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    x = float_kernel(self, "GeluKernelImpl")
    if approximate == "tanh":
        inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)
        out = 0.5 * x * (1 + np.tanh(inner))
    else:
        out = 0.5 * x * (1 + _erf(x / math.sqrt(2)))
    return record(
        GeluBackward0, out.astype(x.dtype), (self,), {"self": self, "approximate": approximate}
    )


class GeluBackward0(_Act):
    __slots__ = ()
    _name = "GeluBackward0"

    def deriv(self, x: Array) -> Array:
        if self.saved("approximate") == "tanh":
            k = math.sqrt(2 / math.pi)
            t = np.tanh(k * (x + 0.044715 * x**3))
            return np.asarray(
                0.5 * (1 + t) + 0.5 * x * (1 - t * t) * k * (1 + 3 * 0.044715 * x * x)
            )
        cdf = 0.5 * (1 + _erf(x / math.sqrt(2)))
        return cdf + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)

    def deriv2(self, x: Array) -> Array:
        if self.saved("approximate") == "tanh":
            k, c = math.sqrt(2 / math.pi), 0.044715
            t = np.tanh(k * (x + c * x**3))
            u1, u2 = k * (1 + 3 * c * x * x), 6 * k * c * x
            return (1 - t * t) * (u1 - x * t * u1 * u1 + 0.5 * x * u2)
        return np.asarray(np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi) * (2 - x * x))


def _sig(x: Array) -> Array:
    return np.exp(-np.logaddexp(0, -x)).astype(x.dtype)


def silu(self: Tensor) -> Tensor:
    """x * sigmoid(x)."""
    x = float_kernel(self, "silu_cpu")
    return record(SiluBackward0, x * _sig(x), (self,), {"self": self})


class SiluBackward0(_Act):
    __slots__ = ()
    _name = "SiluBackward0"

    def composite(self, g: Tensor, x: Tensor) -> Tensor | None:
        # ATen's math_silu_backward, op by op: `1 - s` a fill then sub (SubBackward0 over no
        # edge and s), `1 + ...` a scalar add (AddBackward1)
        s = x.sigmoid()
        return (g * s) * add_scalar(x * (const(np.ones_like(s._d)) - s), 1)

    def deriv(self, x: Array) -> Array:
        s = _sig(x)
        return np.asarray(s * (1 + x * (1 - s)))

    def deriv2(self, x: Array) -> Array:
        s = _sig(x)
        return np.asarray(s * (1 - s) * (2 + x * (1 - 2 * s)))


def elu(
    self: Tensor,
    alpha: float = 1.0,
    scale: float = 1.0,
    input_scale: float = 1.0,
    celu: bool = False,
) -> Tensor:
    """Exponential linear unit (also SELU and CELU through its scales)."""
    x = float_kernel(self, "elu_cpu")
    out = np.where(x > 0, x * scale, alpha * scale * np.expm1(x * input_scale)).astype(x.dtype)
    if celu:
        return record(CeluBackward0, out, (self,), {"self": self, "alpha": alpha})
    saved = {"self": self, "alpha": alpha, "scale": scale, "input_scale": input_scale}
    return record(EluBackward0, out, (self,), saved)


def elu_result(self: Tensor, alpha: float, scale: float, input_scale: float, celu: bool) -> Tensor:
    """The in-place form's op: PyTorch saves the result instead of the input."""
    x = float_kernel(self, "elu_cpu")
    out = np.where(x > 0, x * scale, alpha * scale * np.expm1(x * input_scale)).astype(x.dtype)
    if celu:
        return record(CeluBackward1, out, (self,), {"alpha": alpha}, out_saved="result")
    saved = {"alpha": alpha, "scale": scale, "input_scale": input_scale}
    return record(EluBackward1, out, (self,), saved, out_saved="result")


class EluBackward1(OpNode):
    __slots__ = ()
    _name = "EluBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        rt = self.saved("result")
        r = rt._d
        a = self.saved("alpha")
        s = self.saved("scale") if "scale" in (self._saved or {}) else 1.0
        i = self.saved("input_scale") if "input_scale" in (self._saved or {}) else 1.0 / a
        if STATE.enabled and (g._rg or rt._rg):
            # create_graph: the result-based derivative with engine ops (differentiable in r)
            from engine.ops.pointwise import where

            pos = const(np.asarray(r > 0))
            return [g * where(pos, rt * 0 + s, (rt + a * s) * i)]
        return [g * const(np.where(r > 0, s, i * (r + a * s)).astype(r.dtype))]


class CeluBackward1(EluBackward1):
    __slots__ = ()
    _name = "CeluBackward1"


def leaky_relu_result(self: Tensor, negative_slope: float) -> Tensor:
    """The in-place leaky_relu's op (saves the result)."""
    x = float_kernel(self, "leaky_relu_cpu")
    out = np.where(x > 0, x, x * negative_slope).astype(x.dtype)
    saved = {"negative_slope": negative_slope}
    return record(LeakyReluBackward1, out, (self,), saved, out_saved="result")


class LeakyReluBackward1(OpNode):
    __slots__ = ()
    _name = "LeakyReluBackward1"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        r = self.saved("result")._d
        d = np.where(r > 0, 1.0, self.saved("negative_slope")).astype(r.dtype)
        return [g * const(d)]


def _elu_double(g: Tensor, x: Tensor, alpha: Any, scale: Any, input_scale: Any) -> dict[str, Any]:
    """What PyTorch's EluBackwardBackward0 saves (elu's backward from its input)."""
    return {
        "grad_output": g,
        "self_or_result": x,
        "alpha": alpha,
        "scale": scale,
        "input_scale": input_scale,
        "is_result": False,
    }


class EluBackward0(_Act):
    __slots__ = ()
    _name = "EluBackward0"

    def double_saved(self, g: Tensor, x: Tensor) -> dict[str, Any]:
        a, s, i = self.saved("alpha"), self.saved("scale"), self.saved("input_scale")
        return _elu_double(g, x, a, s, i)

    def deriv(self, x: Array) -> Array:
        a, s, i = self.saved("alpha"), self.saved("scale"), self.saved("input_scale")
        return np.asarray(np.where(x > 0, s, a * s * i * np.exp(x * i)))

    def deriv2(self, x: Array) -> Array:
        a, s, i = self.saved("alpha"), self.saved("scale"), self.saved("input_scale")
        return np.where(x > 0, 0.0, a * s * i * i * np.exp(x * i))


class CeluBackward0(_Act):
    __slots__ = ()
    _name = "CeluBackward0"
    _double = "EluBackwardBackward0"  # ATen's celu is elu underneath

    def double_saved(self, g: Tensor, x: Tensor) -> dict[str, Any]:
        a = self.saved("alpha")
        return _elu_double(g, x, a, 1.0, 1.0 / a)

    def deriv(self, x: Array) -> Array:
        a = self.saved("alpha")
        return np.where(x > 0, 1.0, np.exp(x / a))

    def deriv2(self, x: Array) -> Array:
        a = self.saved("alpha")
        return np.where(x > 0, 0.0, np.exp(x / a) / a)


def leaky_relu(self: Tensor, negative_slope: float = 0.01) -> Tensor:
    """max(0, x) + negative_slope * min(0, x)."""
    x = float_kernel(self, "leaky_relu_cpu")
    out = np.where(x > 0, x, x * negative_slope).astype(x.dtype)
    return record(
        LeakyReluBackward0, out, (self,), {"self": self, "negative_slope": negative_slope}
    )


class LeakyReluBackward0(_Act):
    __slots__ = ()
    _name = "LeakyReluBackward0"
    _piecewise = True

    def deriv(self, x: Array) -> Array:
        return np.where(x > 0, 1.0, self.saved("negative_slope"))


def softplus(self: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + exp(beta x)) / beta, linear above `threshold` as PyTorch."""
    x = float_kernel(self, "softplus_cpu")
    bx = x * beta
    out = np.where(bx > threshold, x, np.logaddexp(0, bx) / beta).astype(x.dtype)
    saved = {"self": self, "beta": beta, "threshold": threshold}
    return record(SoftplusBackward0, out, (self,), saved)


class SoftplusBackward0(_Act):
    __slots__ = ()
    _name = "SoftplusBackward0"

    def deriv(self, x: Array) -> Array:
        bx = x * self.saved("beta")
        return np.where(bx > self.saved("threshold"), 1.0, _sig(bx))

    def deriv2(self, x: Array) -> Array:
        beta = self.saved("beta")
        sg = _sig(x * beta)
        return np.where(x * beta > self.saved("threshold"), 0.0, beta * sg * (1 - sg))


def hardtanh(self: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """Clamp to [min_val, max_val]; the gradient is zero at and beyond the bounds (an integer
    input stays integer, as ATen's hardtanh is a clamp)."""
    x = self._d
    if x.dtype == np.bool_:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    if x.dtype.kind in "iu":  # the bounds in the input's type, as Scalar.to<int>() truncates
        min_val, max_val = int(min_val), int(max_val)
    if x.dtype.kind == "u" and (min_val < 0 or max_val < 0):
        raise RuntimeError("cannot do hardtanh on an unsigned type with negative limits")
    out = np.clip(x, min_val, max_val).astype(x.dtype)
    saved = {"self": self, "min_val": min_val, "max_val": max_val}
    return record(HardtanhBackward0, out, (self,), saved)


class HardtanhBackward0(_Act):
    __slots__ = ()
    _name = "HardtanhBackward0"
    _piecewise = True

    def deriv(self, x: Array) -> Array:
        return np.asarray(
            ((x > self.saved("min_val")) & (x < self.saved("max_val"))).astype(x.dtype)
        )


# -- embedding ---------------------------------------------------------------------------
# -- backward maps that are linear in the incoming gradient ------------------------------
Map = Any  # ndarray -> ndarray


def linear_grad(
    name: str,
    g: Tensor,
    fn: Map,
    adjoint: Map,
    self_: Tensor | None = None,
    same: bool = False,
    saved: dict[str, Any] | None = None,
) -> Tensor:
    """fn(g) for a backward that is linear in g (pooling, padding, embedding).

    Under create_graph the result is recorded as `<name>Backward0` whose own backward is the
    adjoint map (the forward op's linear action, recorded as the forward's node `name` again),
    so second derivatives flow through it. With `self_` (the forward's input, where PyTorch's
    backward op takes it: pooling, reflection padding, nll_loss) the node is over (grad, self)
    and recorded when either requires grad, its gradient for self zeros, as PyTorch's
    `self: zeros_like(self)`. With `same` the backward is the forward op itself
    (constant_pad_nd by the negated pads, channel_shuffle by the inverse groups), so every
    order's node is `name`, as in PyTorch. `saved` are the node's PyTorch-named saved values.
    """
    node = name if same else name[:-1] + "Backward0"
    return _linear(node, name, g, fn, adjoint, self_, saved)


def _linear(
    name: str,
    adjoint_name: str,
    g: Tensor,
    fn: Map,
    adjoint: Map,
    self_: Tensor | None = None,
    saved: dict[str, Any] | None = None,
) -> Tensor:
    """fn(g), recorded under create_graph as the node `name` whose backward is `adjoint`,
    recorded as `adjoint_name`."""
    data = fn(g._d)
    if not (STATE.enabled and (g._rg or (self_ is not None and self_._rg))):
        return const(data)
    node = variant(LinearBackwardBackward, name)
    keep: dict[str, Any] = {"maps": (adjoint, fn), "adjoint_name": adjoint_name}
    if self_ is None:
        return record(node, data, (g,), saved, keep=keep)
    keep["self_shape"] = self_._d.shape
    return record(node, data, (g, self_), saved, keep=keep)


class LinearBackwardBackward(OpNode):
    """The backward of a linear backward map: its adjoint (recorded as its `variant` named for
    the map, `MaxPool2DWithIndicesBackwardBackward0`), and zeros for self where it is an input."""

    __slots__ = ()
    _name = "LinearBackwardBackward0"
    _listed = False

    def apply(self, grads: Grads) -> Grads:
        gg = grads[0]
        assert gg is not None
        adjoint, fn = self.__dict__["maps"]
        out: Grads = [None]
        if self.needs(0):
            out[0] = _linear(self.__dict__["adjoint_name"], self._name, gg, adjoint, fn)
        if "self_shape" in self.__dict__:
            zero = self.needs(1)
            out.append(const(np.zeros(self.__dict__["self_shape"], gg._d.dtype)) if zero else None)
        return out


def dropout_noise(x: Tensor, shape: tuple[int, ...], p: float) -> Tensor:
    """PyTorch's CPU dropout: `empty(shape).bernoulli_(1 - p).div_(1 - p)` (zeros when p=1)."""
    from engine._generator import default_generator

    dt = x._d.dtype
    keep = default_generator.bernoulli_scalar(int(np.prod(shape)), 1.0 - p).reshape(shape)
    if p == 1.0:
        return make(np.zeros(shape, dt), False, None, 0)
    return make(keep.astype(dt) / np.asarray(1.0 - p, dt), False, None, 0)
