"""Channel shuffle, randomized leaky ReLU (`rrelu_with_noise`) and GLU: one PyTorch node each."""

from __future__ import annotations

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, float_kernel, record
from engine.ops.nn_ops import Array, linear_grad


def _shuffle(a: Array, groups: int) -> Array:
    """(N, g, C/g, ...) -> (N, C/g, g, ...): channel i of group j moves to i * g + j."""
    n, c = a.shape[:2]
    v = a.reshape(n, groups, c // groups, *a.shape[2:]).swapaxes(1, 2)
    return np.ascontiguousarray(v).reshape(a.shape)


def channel_shuffle(x: Tensor, groups: int) -> Tensor:
    """Interleave the channels of `groups` groups."""
    if x._d.ndim <= 2:
        raise RuntimeError(
            f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(x.shape)}"
        )
    if groups <= 0:
        raise RuntimeError(
            f"Number of groups to divide channels in must be positive. Value of groups:{groups}"
        )
    c = x.shape[1]
    if c % groups:
        raise RuntimeError(
            f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups."
        )
    return record(ChannelShuffleBackward0, _shuffle(x._d, groups), (x,), {"groups": groups})


class ChannelShuffleBackward0(OpNode):
    __slots__ = ()
    _name = "ChannelShuffleBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        groups = self.saved("groups")
        back = g.shape[1] // groups  # the inverse interleaving
        unshuffle, shuffle = (lambda a: _shuffle(a, back)), (lambda a: _shuffle(a, groups))
        return [linear_grad(self._name, g, unshuffle, shuffle, same=True)]


def rrelu_with_noise(x: Tensor, lower: float, upper: float, training: bool) -> Tensor:
    """ATen's rrelu_with_noise: while training, one uniform(lower, upper) double draw per
    non-positive element, in order; in eval the slope is (lower + upper) / 2."""
    from engine._generator import default_generator

    a = float_kernel(x, "rrelu_with_noise_out_cpu" if training else "leaky_relu_cpu")
    if training:
        neg = a <= 0
        noise = np.ones(a.shape, a.dtype)
        r = default_generator._unit(int(neg.sum()), np.float64) * (upper - lower) + lower
        noise[neg] = r.astype(a.dtype)
        out = a * noise
    else:
        noise = np.zeros(0, a.dtype)
        out = np.where(a >= 0, a, a * a.dtype.type((lower + upper) / 2))
    saved = {"self": x, "noise": make(noise, False, None, 0), "lower": lower, "upper": upper}
    saved["training"] = training
    return record(RreluWithNoiseBackward0, out.astype(a.dtype), (x,), saved)


class RreluWithNoiseBackward0(OpNode):
    __slots__ = ()
    _name = "RreluWithNoiseBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        x = self.saved("self")._d
        if self.saved("training"):
            slope = self.saved("noise")._d
        else:
            mid = (self.saved("lower") + self.saved("upper")) / 2
            slope = np.where(x > 0, 1.0, mid).astype(x.dtype)
        return [g * make(slope, False, None, 0)]


def glu(x: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b) for the two halves (a, b) of x along dim."""
    a = float_kernel(x, "glu_cpu")
    if a.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    d = dim % a.ndim
    if a.shape[d] % 2:
        raise RuntimeError(
            f"Halving dimension must be even, but dimension {d} is size {a.shape[d]}"
        )
    first, second = np.split(a, 2, axis=d)
    with np.errstate(over="ignore"):
        out = first / (1 + np.exp(-second.astype(np.float64))).astype(a.dtype)
    return record(GluBackward0, out.astype(a.dtype), (x,), {"dim": dim, "self": x})


class GluBackward0(OpNode):
    __slots__ = ()
    _name = "GluBackward0"

    def apply(self, grads: Grads) -> Grads:
        from engine.ops.tensor_shape import cat

        g = grads[0]
        assert g is not None
        x, dim = self.saved("self"), self.saved("dim")
        first, second = x.chunk(2, dim)
        sig = second.sigmoid()
        return [cat([g * sig, g * first * sig * (1 - sig)], dim)]
