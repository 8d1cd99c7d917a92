"""`torch.nn.utils.parametrizations`: weight_norm and spectral_norm."""

from __future__ import annotations

from typing import Any

from engine._tensor import Tensor
from engine.autograd.grad_mode import no_grad
from engine.nn.modules.module import Module
from engine.nn.utils import parametrize
from engine.ops.nn_weight_norm import _weight_norm, norm_except_dim


class _WeightNorm(Module):
    """weight = g * v / ||v||, from the pair (g, v) that `right_inverse` splits a weight into."""

    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrize `module.<name>` by magnitude (original0) and direction (original1)."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma the largest singular value estimated by power iteration."""

    def __init__(
        self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12
    ) -> None:
        from engine.nn import functional as F

        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                "Dimension out of range (expected to be in range of "
                f"[-{ndim}, {ndim - 1}] but got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat: Any = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Any) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)  # type: ignore[no-any-return]

    def _power_method(self, weight_mat: Any, n_power_iterations: int) -> None:
        from engine.nn import functional as F
        from engine.ops.linalg import mv

        with no_grad():  # PyTorch writes the new vectors into the buffers (`out=`)
            for _ in range(n_power_iterations):
                u: Any = self._u
                u.copy_(F.normalize(mv(weight_mat, self._v), dim=0, eps=self.eps))
                v: Any = self._v
                v.copy_(F.normalize(mv(weight_mat.mH, self._u), dim=0, eps=self.eps))

    def forward(self, weight: Any) -> Tensor:
        from engine.nn import functional as F
        from engine.ops.linalg import mv, vdot

        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = vdot(u, mv(weight_mat, v))
        return weight / sigma  # type: ignore[no-any-return]

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Divide `module.<name>` by its spectral norm (power iteration, updated in training)."""
    from engine.nn.utils.spectral_norm import _default_dim

    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = _default_dim(module)
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps)
    )
    return module


__all__ = ["spectral_norm", "weight_norm"]
