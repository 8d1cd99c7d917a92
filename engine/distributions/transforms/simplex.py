"""Maps from unconstrained vectors onto the simplex: Softmax (not bijective) and StickBreaking
(bijective, one dimension shorter on the input side).

>>> StickBreakingTransform()(torch.zeros(2))
tensor([0.3333, 0.3333, 0.3333])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine.distributions import constraints
from engine.distributions.transforms.base import Transform

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


def _same_kind(self: Transform, other: object) -> bool:
    return isinstance(other, type(self))


def _at_least_1d(shape: Any) -> None:
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")


def _clipped_sigmoid(x: Any) -> Any:
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1.0 - finfo.eps)


class SoftmaxTransform(Transform):
    """y = softmax(x) over the last dim; the inverse is log (up to a constant)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y: Any) -> Any:
        return y.log()

    def forward_shape(self, shape: Any) -> Any:
        _at_least_1d(shape)
        return shape

    def inverse_shape(self, shape: Any) -> Any:
        _at_least_1d(shape)
        return shape


class StickBreakingTransform(Transform):
    """R^(K-1) onto the K-simplex by breaking a stick (sigmoids offset so 0 maps to uniform)."""

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    __eq__ = _same_kind
    __hash__ = object.__hash__

    def _call(self, x: Any) -> Any:
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        z = _clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        pad = torch.nn.functional.pad
        return pad(z, [0, 1], value=1) * pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y: Any) -> Any:
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        sf = 1 - y_crop.cumsum(-1)
        # clamped: sf can reach 0 when y[-1] ~ 0 or y[:-1].sum() ~ 1
        sf = torch.clamp(sf, min=torch.finfo(y.dtype).tiny)
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x: Any, y: Any) -> Any:
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        x = x - offset.log()
        # the identity 1 - sigmoid(x) = exp(-x) * sigmoid(x)
        return (-x + torch.nn.functional.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape: Any) -> Any:
        _at_least_1d(shape)
        return shape[:-1] + (shape[-1] + 1,)  # noqa: RUF005 (a Size stays a Size)

    def inverse_shape(self, shape: Any) -> Any:
        _at_least_1d(shape)
        return shape[:-1] + (shape[-1] - 1,)  # noqa: RUF005 (a Size stays a Size)
