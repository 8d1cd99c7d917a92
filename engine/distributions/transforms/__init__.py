"""`torch.distributions.transforms`: invertible maps with log|det J|, composed as PyTorch
composes them (Abs, Exp, Power, Affine, Sigmoid, Tanh, Softplus, Softmax, StickBreaking,
Independent, Reshape, LowerCholesky, PositiveDefinite, their inverses and compositions).

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
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
)
from engine.distributions.transforms.matrix import (
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
)
from engine.distributions.transforms.shape import IndependentTransform, ReshapeTransform
from engine.distributions.transforms.simplex import SoftmaxTransform, StickBreakingTransform

__all__ = [
    "AbsTransform", "AffineTransform", "ComposeTransform", "ExpTransform", "IndependentTransform",
    "LowerCholeskyTransform", "PositiveDefiniteTransform", "PowerTransform", "ReshapeTransform",
    "SigmoidTransform", "SoftmaxTransform", "SoftplusTransform", "StickBreakingTransform",
    "TanhTransform", "Transform", "identity_transform",
]  # fmt: skip
