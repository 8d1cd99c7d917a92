"""`torch.func`: grad, grad_and_value, vmap, jacrev/jacfwd, hessian, functional_call, built on
the engine's autograd (vmap runs the function once per batch element and stacks).

>>> torch.func.grad(lambda t: (t ** 3).sum())(torch.tensor([1.0, 2.0]))
tensor([ 3., 12.])
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from engine._tensor import Tensor

torch: Any = importlib.import_module("engine")
Fn = Callable[..., Any]


def _track(t: Tensor) -> Tensor:
    """An input to differentiate: a fresh leaf, or an alias that keeps an outer level's graph."""
    return t.view_as(t) if t.requires_grad else t.detach().requires_grad_()  # type: ignore[attr-defined,no-any-return]


def grad_and_value(func: Fn, argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Fn:
    """A function returning (gradient of func w.r.t. `argnums`, func's value)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        outer = torch.is_grad_enabled() and any(args[i].requires_grad for i in nums)
        with torch.enable_grad():
            new = list(args)
            for i in nums:
                new[i] = _track(args[i])
            out = func(*new, **kwargs)
            aux = None
            if has_aux:
                out, aux = out
            if not isinstance(out, Tensor) or out.ndim != 0:
                dims = out.ndim if isinstance(out, Tensor) else 0
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                    f"tensor with {dims} dims. Maybe you wanted to use the vjp or jacrev APIs "
                    "instead?"
                )
            gs = torch.autograd.grad(out, [new[i] for i in nums], create_graph=outer)
        g = gs[0] if isinstance(argnums, int) else tuple(gs)
        if outer:
            return (g, (out, aux)) if has_aux else (g, out)
        return (g, (out.detach(), _detached(aux))) if has_aux else (g, out.detach())

    return wrapper


def _detached(tree: Any) -> Any:
    """Tensors in an aux output leave the transform without their graph, as in PyTorch."""
    if isinstance(tree, Tensor):
        return tree.detach()
    if isinstance(tree, tuple | list):
        return type(tree)(_detached(t) for t in tree)
    if isinstance(tree, dict):
        return {k: _detached(v) for k, v in tree.items()}
    return tree


def grad(func: Fn, argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Fn:
    """A function returning the gradient of scalar-valued `func` w.r.t. its `argnums`."""
    gv = grad_and_value(func, argnums, has_aux)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, value = gv(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def vmap(func: Fn, in_dims: Any = 0, out_dims: int = 0, **_: Any) -> Fn:
    """Map `func` over a batch dimension of its inputs (`None` in `in_dims`: not batched)."""

    def wrapper(*args: Any) -> Any:
        dims = in_dims if isinstance(in_dims, tuple | list) else (in_dims,) * len(args)
        sizes = {a.shape[d] for a, d in zip(args, dims) if d is not None}
        if len(sizes) != 1:
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped dimension, "
                f"got sizes {sorted(sizes)} for the mapped dimension"
            )
        n = sizes.pop()
        outs = [
            func(*[a if d is None else a.select(d, i) for a, d in zip(args, dims)])
            for i in range(n)
        ]
        if isinstance(outs[0], tuple):
            return tuple(torch.stack(list(o), out_dims) for o in zip(*outs))
        return torch.stack(outs, out_dims)

    return wrapper


def jacrev(func: Fn, argnums: int = 0, **_: Any) -> Fn:
    """The Jacobian of `func` w.r.t. argument `argnums`."""

    def wrapper(*args: Any) -> Any:
        def only(x: Tensor) -> Any:
            return func(*args[:argnums], x, *args[argnums + 1 :])

        return torch.autograd.functional.jacobian(only, args[argnums])

    return wrapper


jacfwd = jacrev


def hessian(func: Fn, argnums: int = 0) -> Fn:
    """The Hessian of scalar-valued `func` w.r.t. argument `argnums`."""

    def wrapper(*args: Any) -> Any:
        def only(x: Tensor) -> Any:
            return func(*args[:argnums], x, *args[argnums + 1 :])

        return torch.autograd.functional.hessian(only, args[argnums])

    return wrapper


def functional_call(
    module: Any, parameter_and_buffer_dicts: Any, args: Any = (), kwargs: Any = None
) -> Any:
    """Run `module` with some parameters/buffers replaced by the given tensors."""
    dicts = parameter_and_buffer_dicts
    merged: dict[str, Any] = {}
    for d in dicts if isinstance(dicts, tuple | list) else (dicts,):
        merged.update(d)
    saved = []
    for name, value in merged.items():
        owner_name, _, attr = name.rpartition(".")
        owner = module.get_submodule(owner_name) if owner_name else module
        store = owner._parameters if attr in owner._parameters else owner._buffers
        saved.append((store, attr, store[attr]))
        store[attr] = value
    try:
        call_args = args if isinstance(args, tuple) else (args,)
        return module(*call_args, **(kwargs or {}))
    finally:
        for store, attr, old in reversed(saved):
            store[attr] = old
