"""`torch.distributions.transforms`: invertible maps with log|det J|, composed as PyTorch
composes them (Abs, Exp, Power, Affine, Sigmoid, Tanh, Softplus, CumulativeDistribution,
Softmax, StickBreaking, Independent, Reshape, LowerCholesky, PositiveDefinite, CorrCholesky,
Cat, Stack, their inverses and compositions).

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
    CumulativeDistributionTransform,
    ExpTransform,
    PowerTransform,
    SigmoidTransform,
    SoftplusTransform,
    TanhTransform,
)
from engine.distributions.transforms.functors import CatTransform, StackTransform
from engine.distributions.transforms.matrix import (
    CorrCholeskyTransform,
    LowerCholeskyTransform,
    PositiveDefiniteTransform,
)
from engine.distributions.transforms.shape import IndependentTransform, ReshapeTransform
from engine.distributions.transforms.simplex import SoftmaxTransform, StickBreakingTransform

__all__ = [
    "AbsTransform", "AffineTransform", "CatTransform", "ComposeTransform",
    "CorrCholeskyTransform", "CumulativeDistributionTransform", "ExpTransform",
    "IndependentTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
    "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform",
    "SoftplusTransform", "StackTransform", "StickBreakingTransform", "TanhTransform",
    "Transform", "identity_transform",
]  # fmt: skip
