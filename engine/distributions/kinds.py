"""Normal, Uniform, Bernoulli, Categorical."""

from __future__ import annotations

import math
from numbers import Number
from typing import Any

import engine as _engine
from engine._size import Size
from engine._tensor import Tensor
from engine.distributions import constraints
from engine.distributions.distribution import Distribution, broadcast_all
from engine.distributions.exp_family import ExponentialFamily

torch = _engine  # the public namespace (typed: engine/_torch_surface.pyi)


class Normal(ExponentialFamily):
    """N(loc, scale^2); `rsample` is reparameterised (loc + eps * scale)."""

    arg_constraints = {"loc": constraints.real, "scale": constraints.positive}
    support = constraints.real
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, loc: Any, scale: Any, validate_args: Any = None) -> None:
        self.loc, self.scale = broadcast_all(loc, scale)
        scalar = isinstance(loc, Number) and isinstance(scale, Number)
        super().__init__(Size() if scalar else self.loc.size(), validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return self.scale

    def expand(self, batch_shape: Any, _instance: Any = None) -> Normal:
        return self._expand_params(Normal, batch_shape, _instance, "loc", "scale")

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        z = (value - self.loc) * self.scale.reciprocal() / math.sqrt(2)
        return 0.5 * (1 + torch.erf(z))

    def icdf(self, value: Tensor) -> Tensor:
        return self.loc + self.scale * torch.erfinv(2 * value - 1) * math.sqrt(2)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = torch.empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        var = self.scale**2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def entropy(self) -> Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        return (self.loc / self.scale.pow(2), -0.5 * self.scale.pow(2).reciprocal())

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        x, y = natural_params
        return -0.25 * x.pow(2) / y + 0.5 * torch.log(-math.pi / y)


class Uniform(Distribution):
    """U[low, high)."""

    has_rsample = True

    @property
    def arg_constraints(self) -> dict[str, Any]:
        return {"low": constraints.less_than(self.high), "high": constraints.greater_than(self.low)}

    def __init__(self, low: Any, high: Any, validate_args: Any = None) -> None:
        self.low, self.high = broadcast_all(low, high)
        scalar = isinstance(low, Number) and isinstance(high, Number)
        super().__init__(Size() if scalar else self.low.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Uniform:
        return self._expand_params(Uniform, batch_shape, _instance, "low", "high")

    @property
    def support(self) -> Any:
        return constraints.interval(self.low, self.high)

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return math.nan * self.high

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12**0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def cdf(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        result = (value - self.low) / (self.high - self.low)
        return result.clamp(min=0, max=1)

    def icdf(self, value: Tensor) -> Tensor:
        return value * (self.high - self.low) + self.low

    def rsample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(shape, dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def entropy(self) -> Tensor:
        return torch.log(self.high - self.low)


def _clamp_probs(probs: Tensor) -> Tensor:
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


class _ProbsOrLogits(Distribution):
    """Parameterised by `probs` or `logits`; the other one is derived on first use."""

    _binary = False
    _num_events: int
    _lazy_params = ("probs", "logits")

    def _init_param(self, probs: Any, logits: Any) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")

    @property
    def _param(self) -> Tensor:
        """The parameter given (probs or logits), as stored."""
        given: Tensor = self.__dict__["probs" if "probs" in self.__dict__ else "logits"]
        return given

    @property
    def param_shape(self) -> Size:
        return Size(self._param.size())

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        new = self._expand_params(type(self), batch_shape, _instance, "probs", "logits")
        if not self._binary:
            new._num_events = self._num_events
        return new

    def _support_values(self, n: int, dtype: Any, expand: bool) -> Tensor:
        values = torch.arange(n, dtype=dtype).view((-1,) + (1,) * len(self._batch_shape))
        return values.expand((-1, *self._batch_shape)) if expand else values

    @property
    def probs(self) -> Tensor:
        if "probs" not in self.__dict__:
            lg = self.__dict__["logits"]
            with torch.enable_grad():  # (a lazy_property in PyTorch: see utils.lazy_property)
                self.__dict__["probs"] = (
                    torch.sigmoid(lg) if self._binary else torch.nn.functional.softmax(lg, dim=-1)
                )
        out: Tensor = self.__dict__["probs"]
        return out

    @property
    def logits(self) -> Tensor:
        if "logits" not in self.__dict__:
            with torch.enable_grad():
                ps = _clamp_probs(self.__dict__["probs"])
                self.__dict__["logits"] = (
                    torch.log(ps) - torch.log1p(-ps) if self._binary else torch.log(ps)
                )
        out: Tensor = self.__dict__["logits"]
        return out


class _TrialCounts(_ProbsOrLogits):
    """Counts over `total_count` trials of one probability (`probs` or `logits`): Binomial's
    and NegativeBinomial's shared parameters."""

    _binary = True
    _lazy_params = ("probs", "logits")
    total_count: Tensor

    def _init_counts(self, total_count: Any, probs: Any, logits: Any, validate_args: Any) -> None:
        self._init_param(probs, logits)
        name = "probs" if probs is not None else "logits"
        count, param = broadcast_all(total_count, probs if probs is not None else logits)
        self.total_count = count.type_as(param)
        self.__dict__[name] = param
        Distribution.__init__(self, param.size(), validate_args=validate_args)

    def expand(self, batch_shape: Any, _instance: Any = None) -> Any:
        return self._expand_params(
            type(self), batch_shape, _instance, "total_count", "probs", "logits"
        )


class Bernoulli(_ProbsOrLogits, ExponentialFamily):
    """1 with probability `probs`, else 0 (an exponential family, as in PyTorch's map)."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.boolean
    has_enumerate_support = True
    _binary = True
    _mean_carrier_measure = 0

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        self._init_param(probs, logits)
        given = probs if probs is not None else logits
        (self.__dict__["probs" if probs is not None else "logits"],) = broadcast_all(given)
        param = self.__dict__["probs" if probs is not None else "logits"]
        shape = Size() if isinstance(given, Number) else param.size()
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return self.probs

    @property
    def mode(self) -> Tensor:
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self) -> Tensor:
        return self.probs * (1 - self.probs)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        return self._support_values(2, self._param.dtype, expand)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(shape))

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        bce = torch.nn.functional.binary_cross_entropy_with_logits
        return -bce(logits, value, reduction="none")

    def entropy(self) -> Tensor:
        bce = torch.nn.functional.binary_cross_entropy_with_logits
        return bce(self.logits, self.probs, reduction="none")

    @property
    def _natural_params(self) -> tuple[Tensor, ...]:
        return (torch.logit(self.probs),)

    def _log_normalizer(self, *natural_params: Tensor) -> Tensor:
        (x,) = natural_params
        return torch.log1p(torch.exp(x))


class Categorical(_ProbsOrLogits):
    """One of K categories, with (unnormalised) `probs` or `logits` along the last dim."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    has_enumerate_support = True

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Any = None) -> None:
        self._init_param(probs, logits)
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError("`probs` parameter must be at least one-dimensional.")
            self.__dict__["probs"] = param = probs / probs.sum(-1, keepdim=True)
        else:
            if logits.dim() < 1:
                raise ValueError("`logits` parameter must be at least one-dimensional.")
            self.__dict__["logits"] = param = logits - logits.logsumexp(dim=-1, keepdim=True)
        self._num_events = param.size()[-1]
        shape = param.size()[:-1] if param.ndimension() > 1 else Size()
        super().__init__(shape, validate_args=validate_args)

    @property
    def mean(self) -> Tensor:
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    @property
    def mode(self) -> Tensor:
        return self.probs.argmax(dim=-1)

    @property
    def variance(self) -> Tensor:
        return torch.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        return self._support_values(self._num_events, torch.long, expand)

    def sample(self, sample_shape: Any = ()) -> Tensor:
        sample_shape = Size(sample_shape)
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = torch.multinomial(probs_2d, sample_shape.numel(), True).T
        return samples_2d.reshape(self._extended_shape(sample_shape))

    @property
    def support(self) -> Any:
        return constraints.integer_interval(0, self._num_events - 1)

    def log_prob(self, value: Tensor) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        value = value.long().unsqueeze(-1)
        value, log_pmf = torch.broadcast_tensors(value, self.logits)
        value = value[..., :1]
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self) -> Tensor:
        min_real = torch.finfo(self.logits.dtype).min
        logits = torch.clamp(self.logits, min=min_real)
        p_log_p = logits * self.probs
        return -p_log_p.sum(-1)
