"""`LKJCholesky(dim, concentration)`: the LKJ distribution over the lower Cholesky factors L of
dim x dim correlation matrices (L L^T has density proportional to det ** (concentration - 1)),
sampled by the onion method and scored as PyTorch does after NumPyro.

>>> LKJCholesky(3, 0.5).event_shape
torch.Size([3, 3])
"""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.beta import Beta
from engine.distributions.distribution import Distribution, broadcast_all

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class LKJCholesky(Distribution):
    """Cholesky factors of correlation matrices; `concentration` (eta) 1 is uniform over them."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration: Any = 1.0, validate_args: Any = None) -> None:
        if dim < 2:
            raise ValueError(
                f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}."
            )
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = Size((dim, dim))
        # the Beta draws of the onion method (section 3.2 of Lewandowski, Kurowicka and Joe),
        # one per row, all at once
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        beta_conc1 = offset + 0.5
        beta_conc0 = marginal_conc.unsqueeze(-1) - 0.5 * offset
        self._beta = Beta(beta_conc1, beta_conc0)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> LKJCholesky:
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))  # noqa: RUF005 (a Size)
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape: Any = ()) -> Tensor:
        # the onion method, vectorised over rows and batches: each row is sqrt(y) times a
        # uniform direction in the strict lower triangle, its diagonal what is left of 1
        y = self._beta.sample(sample_shape).unsqueeze(-1)
        u_normal = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
        u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
        u_hypersphere[..., 0, :].fill_(0.0)  # the first row was 0 / 0
        w = torch.sqrt(y) * u_hypersphere
        eps = torch.finfo(w.dtype).tiny
        diag_elems = torch.clamp(1 - torch.sum(w**2, dim=-1), min=eps).sqrt()
        w += torch.diag_embed(diag_elems)
        return w

    def log_prob(self, value: Tensor) -> Tensor:
        # det(L L^T) ** (eta - 1) = prod L_ii ** (2 eta - 2), times the Jacobian of L -> L L^T,
        # prod L_ii ** (D - i): the density of L is prod L_ii ** (2 eta - 2 + D - i)
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized_log_pdf = torch.sum(order * diag_elems.log(), dim=-1)
        # the normalising constant (page 1999 of the paper); its pi term is D (D - 1) / 4 log pi
        # where the multivariate lgamma has (D - 1)(D - 2) / 4 log pi
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        denominator = torch.lgamma(alpha) * dm1
        numerator = torch.mvlgamma(alpha - 0.5, dm1)
        pi_constant = 0.5 * dm1 * math.log(math.pi)
        normalize_term = pi_constant + numerator - denominator
        return unnormalized_log_pdf - normalize_term
