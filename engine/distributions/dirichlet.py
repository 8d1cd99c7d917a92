"""`Dirichlet(concentration)` over the simplex; `rsample` goes through `_Dirichlet`
(grad_fn `_DirichletBackward`), whose backward is `torch._dirichlet_grad` (a reparameterised
Beta gradient; both ATen ops are in engine/ops/dirichlet.py).

>>> torch.manual_seed(0); Dirichlet(torch.tensor([1.0, 2.0])).sample()
tensor([0.6866, 0.3134])
"""

from __future__ import annotations

from typing import Any

import engine as _engine
from engine._tensor import Tensor
from engine.autograd.function import Function, once_differentiable
from engine.distributions import constraints
from engine.distributions.exp_family import ExponentialFamily
from engine.ops.dirichlet import _dirichlet_grad, _sample_dirichlet

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class _Dirichlet(Function):
    """A Dirichlet draw that carries the reparameterised gradient to the concentration."""

    @staticmethod
    def forward(ctx: Any, concentration: Tensor) -> Tensor:
        x = _sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx: Any, grad_output: Tensor) -> Tensor:
        x, concentration = ctx.saved_tensors
        total = concentration.sum(-1, True).expand_as(concentration)
        grad = _dirichlet_grad(x, concentration, total)
        out: Tensor = grad * (grad_output - (x * grad_output).sum(-1, True))
        return out


class Dirichlet(ExponentialFamily):
    """Dir(concentration): event shape is concentration's last dim."""

    arg_constraints = {"concentration": constraints.independent(constraints.positive, 1)}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, concentration: Tensor, validate_args: Any = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        shape = concentration.shape
        super().__init__(shape[:-1], shape[-1:], validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Dirichlet:
        return self._expand_params(Dirichlet, batch_shape, _instance, "concentration")

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        out: Tensor = _Dirichlet.apply(self.concentration.expand(shape))
        return out

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        c = self.concentration
        return (
            torch.xlogy(c - 1.0, value).sum(-1) + torch.lgamma(c.sum(-1)) - torch.lgamma(c).sum(-1)
        )

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Tensor:
        cm1 = (self.concentration - 1).clamp(min=0.0)
        mode: Tensor = cm1 / cm1.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        one_hot = torch.nn.functional.one_hot(mode[mask].argmax(dim=-1), cm1.shape[-1])
        mode[mask] = one_hot.to(mode)
        return mode

    @property
    def variance(self) -> Tensor:
        c = self.concentration
        con0 = c.sum(-1, True)
        return c * (con0 - c) / (con0.pow(2) * (con0 + 1))

    def entropy(self) -> Tensor:
        c = self.concentration
        k = c.size(-1)
        a0 = c.sum(-1)
        out: Tensor = (
            torch.lgamma(c).sum(-1)
            - torch.lgamma(a0)
            - (k - a0) * torch.digamma(a0)
            - ((c - 1.0) * torch.digamma(c)).sum(-1)
        )
        return out

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        return (self.concentration,)

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        (x,) = natural_params
        return x.lgamma().sum(-1) - torch.lgamma(x.sum(-1))
