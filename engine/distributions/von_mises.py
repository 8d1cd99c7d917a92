"""`VonMises(loc, concentration)`: the circular normal distribution on angles, sampled by Best &
Fisher's rejection method in float64 as PyTorch samples it (same `rand` draws per round).

>>> torch.manual_seed(0); VonMises(torch.tensor([1.0]), torch.tensor([1.0])).sample((2,))
tensor([[0.7218],
        [0.4191]])
"""

from __future__ import annotations

import math
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import Distribution, broadcast_all

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)

# polynomial approximations of log I0 and log I1 (Abramowitz & Stegun 9.8.1-9.8.4)
_COEF_SMALL = [
    [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2],
    [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3],
]
_COEF_LARGE = [
    [
        0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2,
        -0.2057706e-1, 0.2635537e-1, -0.1647633e-1, 0.392377e-2,
    ],
    [
        0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1,
        0.2282967e-1, -0.2895312e-1, 0.1787654e-1, -0.420059e-2,
    ],
]  # fmt: skip


def _eval_poly(y: Tensor, coef: list[float]) -> Tensor:
    """Horner's rule from the highest coefficient down, as PyTorch evaluates it."""
    result: Any = coef[-1]
    for c in reversed(coef[:-1]):
        result = c + y * result
    out: Tensor = result
    return out


def _log_modified_bessel_fn(x: Tensor, order: int = 0) -> Tensor:
    """log(I_order(x)) for x > 0 and order 0 or 1."""
    if order not in (0, 1):
        raise AssertionError(f"order must be 0 or 1, got {order}")
    y = x / 3.75
    y = y * y
    small = _eval_poly(y, _COEF_SMALL[order])
    if order == 1:
        small = x.abs() * small
    small = small.log()
    y = 3.75 / x
    large = x - 0.5 * x.log() + _eval_poly(y, _COEF_LARGE[order]).log()
    return torch.where(x < 3.75, small, large)


def _rejection_sample(loc: Tensor, concentration: Tensor, proposal_r: Tensor, x: Tensor) -> Tensor:
    """Best & Fisher (1979): rounds of three uniforms per element until every element is
    accepted; angles wrapped into [-pi, pi)."""
    done = torch.zeros(x.shape, dtype=torch.bool)
    while not done.all():
        u = torch.rand((3, *x.shape), dtype=loc.dtype)
        u1, u2, u3 = u.unbind()
        z = torch.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if accept.any():
            x = torch.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    out: Tensor = (x + math.pi + loc) % (2 * math.pi) - math.pi
    return out


class VonMises(Distribution):
    """exp(concentration * cos(x - loc)) / (2 pi I0(concentration)), angles modulo 2 pi."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc: Any, concentration: Any, validate_args: Any = None) -> None:
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, Size(), validate_args)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * torch.cos(value - self.loc)
        return (
            log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)
        )

    @property
    def _proposal_r(self) -> Tensor:
        kappa = self.concentration.to(torch.double)
        tau = 1 + (1 + 4 * kappa**2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        proposal_r = (1 + rho**2) / (2 * rho)
        taylor = 1 / kappa + kappa
        return torch.where(kappa < 1e-5, taylor, proposal_r)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        # in float64 throughout: float32 hangs the loop for tiny concentrations (PyTorch #88443)
        with torch.no_grad():
            loc = self.loc.to(torch.double)
            x = torch.empty(self._extended_shape(sample_shape), dtype=loc.dtype)
            kappa = self.concentration.to(torch.double)
            return _rejection_sample(loc, kappa, self._proposal_r, x).to(self.loc.dtype)

    def expand(self, batch_shape: Any, _instance: Any = None) -> VonMises:
        # PyTorch's base expand raises, so a new instance is built from expanded parameters
        validate_args = self.__dict__.get("_validate_args")
        loc = self.loc.expand(batch_shape)
        concentration = self.concentration.expand(batch_shape)
        return type(self)(loc, concentration, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        """The circular mean."""
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        """The circular variance."""
        k = self.concentration
        ratio = _log_modified_bessel_fn(k, order=1) - _log_modified_bessel_fn(k, order=0)
        return 1 - ratio.exp()
