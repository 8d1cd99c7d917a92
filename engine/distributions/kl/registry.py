"""`kl_divergence(p, q)` and `register_kl`: KL(p || q) looked up by the most specific pair
of registered types (the pairs themselves are in same_family.py and cross_family.py).

>>> kl_divergence(Normal(0.0, 1.0), Normal(1.0, 2.0))
tensor(0.4431)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine._tensor import Tensor
from engine.distributions.distribution import Distribution

KL = Callable[[Any, Any], Tensor]
_KL_REGISTRY: dict[tuple[type, type], KL] = {}
_KL_MEMOIZE: dict[tuple[type, type], Any] = {}


def register_kl(type_p: type, type_q: type) -> Callable[[KL], KL]:
    """Decorator registering KL(type_p || type_q)."""

    def decorator(fun: KL) -> KL:
        _KL_REGISTRY[type_p, type_q] = fun
        _KL_MEMOIZE.clear()
        return fun

    return decorator


def _dispatch_kl(type_p: type, type_q: type) -> Any:
    """The most specific registered pair (by subclass order of p, then q)."""
    matches = [(p, q) for p, q in _KL_REGISTRY if issubclass(type_p, p) and issubclass(type_q, q)]
    if not matches:
        return NotImplemented
    best = matches[0]
    for m in matches[1:]:
        if issubclass(m[0], best[0]) and (m[0] is not best[0] or issubclass(m[1], best[1])):
            best = m
    return _KL_REGISTRY[best]


def kl_divergence(p: Distribution, q: Distribution) -> Tensor:
    """KL(p || q) over the batch shape."""
    key = (type(p), type(q))
    if key not in _KL_MEMOIZE:
        _KL_MEMOIZE[key] = _dispatch_kl(*key)
    fun = _KL_MEMOIZE[key]
    if fun is NotImplemented:
        raise NotImplementedError(
            f"No KL(p || q) is implemented for p type {p.__class__.__name__} "
            f"and q type {q.__class__.__name__}"
        )
    out: Tensor = fun(p, q)
    return out
