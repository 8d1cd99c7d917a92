"""`torch.nn.utils.prune`: pruning a module's parameter by a mask.

Pruning `weight` moves the parameter to `weight_orig`, keeps a `weight_mask` buffer and makes
`weight` a plain attribute, `weight_mask * weight_orig` (a MulBackward0 in the graph), which a
forward pre-hook (the pruning method itself) recomputes before every forward. Pruning the same
parameter again combines the methods in a PruningContainer, each new mask computed over what
the earlier ones kept; `remove` makes the pruned values the parameter again.

>>> m = torch.nn.Linear(3, 3)
>>> prune.l1_unstructured(m, "weight", amount=0.3)
>>> [n for n, _ in m.named_parameters()]
['bias', 'weight_orig']
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any, ClassVar

from engine._tensor import Tensor
from engine.nn.modules.module import Module


class BasePruningMethod:
    """A pruning method: `compute_mask` says which entries to keep; applied as a forward
    pre-hook that recomputes the pruned tensor."""

    PRUNING_TYPE: ClassVar[str | None] = None
    _tensor_name: str

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self._tensor_name, self.apply_mask(module))

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        raise NotImplementedError

    def apply_mask(self, module: Module) -> Tensor:
        """The pruned tensor: the mask times the original parameter."""
        assert self._tensor_name is not None, f"Module {module} has to be pruned"
        mask: Tensor = getattr(module, self._tensor_name + "_mask")
        orig: Tensor = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(
        cls, module: Module, name: str, *args: Any, importance_scores: Any = None, **kwargs: Any
    ) -> Any:
        """Prune `module.<name>` with a new `cls(*args, **kwargs)` (combined with the method
        already pruning it, if any)."""
        method = _composite(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is not None:
            assert importance_scores.shape == orig.shape, (
                f"importance_scores should have the same shape as parameter {name} of {module}"
            )
        else:
            importance_scores = orig
        first = not isinstance(method, PruningContainer)
        if first:
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = _ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone()
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # the parameter goes back where it was
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t: Tensor, default_mask: Tensor | None = None,
              importance_scores: Tensor | None = None) -> Tensor:  # fmt: skip
        """`t` with this method's mask applied (the mask computed on `importance_scores`)."""
        if importance_scores is not None:
            assert importance_scores.shape == t.shape, (
                "importance_scores should have the same shape as tensor t"
            )
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else _ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Module) -> None:
        """Make the pruned values the parameter again, dropping `_orig`, `_mask` and the hook's
        attribute (the hook itself is removed by the caller)."""
        assert self._tensor_name is not None, (
            f"Module {module} has to be pruned before pruning can be removed"
        )
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        assert orig is not None
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _ones_like(t: Tensor) -> Tensor:
    from engine._creation import ones_like

    return ones_like(t)


def _composite(cls: Any, module: Module, name: str, *args: Any, **kwargs: Any) -> Any:
    """The method to apply: a new `cls(...)`, or the container of it and the method (or
    container) already pruning `name`, whose hook is taken off."""
    old = None
    found = [k for k, h in module._forward_pre_hooks.items()
             if isinstance(h, BasePruningMethod) and h._tensor_name == name]  # fmt: skip
    assert len(found) <= 1, (
        f"Avoid adding multiple pruning hooks to the same tensor {name} of module {module}. "
        "Use a PruningContainer."
    )
    for k in found:
        old = module._forward_pre_hooks.pop(k)
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if isinstance(old, PruningContainer):
        old.add_pruning_method(method)
        return old
    if isinstance(old, BasePruningMethod):
        container = PruningContainer(old)
        container.add_pruning_method(method)
        return container
    return method


class PruningContainer(BasePruningMethod):
    """The methods pruning one parameter, in order: each new mask is computed over the entries
    (or channels) the earlier masks kept."""

    def __init__(self, *args: Any) -> None:
        self._pruning_methods: tuple[BasePruningMethod | None, ...] = ()
        if not args:
            return
        if len(args) == 1 and not isinstance(args[0], Iterable):
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        elif len(args) == 1 and isinstance(args[0], Iterable):
            for method in args[0]:
                self.add_pruning_method(method)
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method: Any) -> None:
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(
                "Can only add pruning methods acting on the parameter named "
                f"'{self._tensor_name}' to PruningContainer. Found '{method._tensor_name}'"
            )
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Any:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: int) -> BasePruningMethod | None:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The newest method's mask over what `default_mask` (the earlier methods') kept."""
        method = self._pruning_methods[-1]
        assert method is not None
        new_mask = default_mask.to(dtype=t.dtype)
        if method.PRUNING_TYPE == "unstructured":
            slc: Any = default_mask == 1
        elif method.PRUNING_TYPE == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError(
                    "Pruning methods of PRUNING_TYPE 'structured' need to have the attribute "
                    "`dim` defined."
                )
            n = t.dim()
            dim = method.dim if method.dim >= 0 else n + method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor of size {n}")
            keep = default_mask.sum(dim=[d for d in range(n) if d != dim]) != 0
            slc = tuple(keep if d == dim else slice(None) for d in range(n))
        elif method.PRUNING_TYPE == "global":
            slc = (slice(None),) * t.dim()
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")
        partial = method.compute_mask(t[slc], default_mask=default_mask[slc])
        new_mask[slc] = partial.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    """Prunes nothing: the mask is all ones."""

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        return default_mask

    @classmethod
    def apply(cls, module: Module, name: str) -> Any:  # type: ignore[override]
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    """Prunes `amount` entries (a fraction, or a count), those `_ranked` puts first."""

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount: Any) -> None:
        _check_amount(amount)
        self.amount = amount

    def _ranked(self, t: Tensor, k: int) -> Tensor:
        raise NotImplementedError

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        k = _count(self.amount, t.numel())
        mask = default_mask.clone()
        if k:
            mask.view(-1)[self._ranked(t, k)] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prunes `amount` entries (a fraction, or a count) chosen at random."""

    def _ranked(self, t: Tensor, k: int) -> Tensor:
        from engine._random import rand_like
        from engine.ops.reduce_minmax import topk

        return topk(rand_like(t).view(-1), k=k).indices

    @classmethod
    def apply(cls, module: Module, name: str, amount: Any) -> Any:  # type: ignore[override]
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes the `amount` entries (a fraction, or a count) of smallest absolute value."""

    def _ranked(self, t: Tensor, k: int) -> Tensor:
        from engine.ops.reduce_minmax import topk

        return topk(t.abs().view(-1), k=k, largest=False).indices

    @classmethod
    def apply(  # type: ignore[override]
        cls, module: Module, name: str, amount: Any, importance_scores: Any = None
    ) -> Any:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes `amount` whole channels along `dim`, chosen at random."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: Any, dim: int = -1) -> None:
        _check_amount(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        from engine._creation import zeros_like
        from engine._random import rand
        from engine.ops.sorting import kthvalue

        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        k = _count(self.amount, channels)
        if not k:
            return default_mask
        prob = rand(channels)
        keep = prob > kthvalue(prob, k=k).values
        mask = zeros_like(t)
        mask[_along(t, self.dim, keep)] = 1
        return mask * default_mask.to(dtype=mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, amount: Any, dim: int = -1) -> Any:  # type: ignore[override]
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the `amount` channels along `dim` of smallest L`n` norm."""

    PRUNING_TYPE = "structured"

    def __init__(self, amount: Any, n: Any, dim: int = -1) -> None:
        _check_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        from engine._creation import zeros_like
        from engine.ops.reduce_minmax import topk

        _check_structured(t, self.dim)
        channels = t.shape[self.dim]
        k = _count(self.amount, channels)
        if not k:
            return default_mask
        dim = self.dim if self.dim >= 0 else t.dim() + self.dim
        norms = t.norm(p=self.n, dim=[d for d in range(t.dim()) if d != dim])
        kept = topk(norms, k=channels - k, largest=True).indices
        mask = zeros_like(t)
        mask[_along(t, self.dim, kept)] = 1
        return mask * default_mask.to(dtype=mask.dtype)

    @classmethod
    def apply(  # type: ignore[override]
        cls, module: Module, name: str, amount: Any, n: Any, dim: int,
        importance_scores: Any = None,
    ) -> Any:  # fmt: skip
        return super().apply(
            module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores
        )


class CustomFromMask(BasePruningMethod):
    """Prunes where a given mask is 0."""

    PRUNING_TYPE = "global"

    def __init__(self, mask: Tensor) -> None:
        self.mask = mask

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        assert default_mask.shape == self.mask.shape
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, mask: Tensor) -> Any:  # type: ignore[override]
        return super().apply(module, name, mask=mask)


def _along(t: Tensor, dim: int, index: Any) -> tuple[Any, ...]:
    return tuple(index if d == dim % t.dim() else slice(None) for d in range(t.dim()))


def _check_amount(amount: Any) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (isinstance(amount, numbers.Integral) and int(amount) < 0) or (
        not isinstance(amount, numbers.Integral) and (float(amount) > 1.0 or float(amount) < 0.0)
    ):
        raise ValueError(
            f"amount={amount} should either be a float in the range [0, 1] or a non-negative "
            "integer"
        )


def _count(amount: Any, size: int) -> int:
    """How many of `size` entries (or channels) `amount` prunes; a count must fit."""
    if isinstance(amount, numbers.Integral):
        if int(amount) > size:
            raise ValueError(
                f"amount={amount} should be smaller than the number of parameters to prune={size}"
            )
        return int(amount)
    return round(float(amount) * size)


def _check_structured(t: Tensor, dim: int) -> None:
    if t.dim() <= 1:
        raise ValueError(
            "Structured pruning can only be applied to multidimensional tensors. Found tensor of "
            f"shape {t.shape} with {t.dim()} dims"
        )
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def identity(module: Module, name: str) -> Module:
    Identity.apply(module, name)
    return module


def random_unstructured(module: Module, name: str, amount: Any) -> Module:
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(
    module: Module, name: str, amount: Any, importance_scores: Any = None
) -> Module:  # fmt: skip
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Module, name: str, amount: Any, dim: int) -> Module:
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(
    module: Module, name: str, amount: Any, n: Any, dim: int, importance_scores: Any = None
) -> Module:
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def custom_from_mask(module: Module, name: str, mask: Tensor) -> Module:
    CustomFromMask.apply(module, name, mask)
    return module


def global_unstructured(
    parameters: Any, pruning_method: Any, importance_scores: Any = None, **kwargs: Any
) -> None:
    """Prune the (module, name) pairs together: one mask computed over all their entries."""
    from engine._creation import ones_like
    from engine.nn.utils.convert_parameters import parameters_to_vector

    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    parameters = tuple(parameters)
    scores = importance_scores if importance_scores is not None else {}
    if not isinstance(scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    relevant = parameters_to_vector([scores.get((m, n), getattr(m, n)) for m, n in parameters])
    default_mask = parameters_to_vector(
        [getattr(m, n + "_mask", ones_like(getattr(m, n))) for m, n in parameters]
    )
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            f"{pruning_method} of type {method.PRUNING_TYPE}"
        )
    container.add_pruning_method(method)
    final = container.compute_mask(relevant, default_mask)
    start = 0
    for m, n in parameters:
        param = getattr(m, n)
        count = param.numel()
        custom_from_mask(m, n, mask=final[start : start + count].view_as(param))
        start += count


def remove(module: Module, name: str) -> Module:
    """Make `module.<name>` an ordinary parameter again, holding its pruned values."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(
        f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed"
    )


def is_pruned(module: Module) -> bool:
    """Whether any submodule of `module` has a pruning hook."""
    return any(
        isinstance(hook, BasePruningMethod)
        for _, sub in module.named_modules()
        for hook in sub._forward_pre_hooks.values()
    )
