"""`ExponentialFamily`: the base of densities exp(<t(x), theta> - F(theta) + k(x)); its
entropy (and the KL fallback in kl/same_family.py) come from the log normalizer F by autograd,
as Bregman divergences.

>>> isinstance(Normal(0.0, 1.0), ExponentialFamily)
True
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.distributions.distribution import Distribution

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class ExponentialFamily(Distribution):
    """A distribution with natural parameters, a log normalizer and a mean carrier measure."""

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        """A subclass sets it as a class attribute (0 for the families PyTorch ships)."""
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """F(theta) - <theta, grad F(theta)> - E[k(x)], by the Bregman divergence of F."""
        result: Any = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result += lg_normal
        for np, g in zip(nparams, gradients):
            result -= (np * g).reshape((*self._batch_shape, -1)).sum(-1)
        out: Tensor = result
        return out
