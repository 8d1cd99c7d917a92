"""Distances: cosine_similarity, pairwise_distance."""

from __future__ import annotations

import engine
from engine._tensor import Tensor
from engine.autograd.grad_mode import no_grad
from engine.ops.reduce_stats import norm_overload
from engine.ops.scalar_overloads import add_scalar


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """sum((x1 / |x1|) * (x2 / |x2|)) with norms clamped to eps, in PyTorch's node order."""
    if x1.shape != x2.shape:
        x1, x2 = engine.broadcast_tensors(x1, x2)
    norms = []
    for x in (x1, x2):
        # ATen clones the norm and clamps the clone in place under no_grad (CloneBackward0)
        n = engine.linalg.vector_norm(x, 2, dim, keepdim=True).clone()
        with no_grad():
            n.clamp_min_(eps)
        norms.append(n)
    return ((x1 / norms[0]) * (x2 / norms[1])).sum(dim)


def pairwise_distance(
    x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False
) -> Tensor:
    """||x1 - x2 + eps||_p over the last dim."""
    diff = add_scalar(x1 - x2, eps)
    return norm_overload(diff, p, diff.ndim - 1, keepdim)
