"""`torch.distributions.transforms`: invertible maps with log|det J|, composed as PyTorch
composes them (Abs, Exp, Affine, Sigmoid, Tanh, Softplus, their inverses and compositions).

>>> ExpTransform()(torch.tensor([0.0]))
tensor([1.])
"""

from __future__ import annotations

from engine.distributions.transforms.base import (
    ComposeTransform,
    Transform,
    identity_transform,
)
from engine.distributions.transforms.elementwise import (
    AbsTransform,
    AffineTransform,
    ExpTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
)

__all__ = [
    "AbsTransform", "AffineTransform", "ComposeTransform", "ExpTransform", "SigmoidTransform",
    "SoftplusTransform", "TanhTransform", "Transform", "identity_transform",
]  # fmt: skip
