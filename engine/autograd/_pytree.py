"""Just enough of `torch.utils._pytree` for torch.func: tuples, lists, dicts of leaves."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# a spec is None for a leaf, else (kind, keys, child specs); kind is a container type
Spec = Any


def tree_flatten(tree: Any) -> tuple[list[Any], Spec]:
    """The leaves of `tree` in order, and its structure."""
    leaves: list[Any] = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree: Any, leaves: list[Any]) -> Spec:
    if isinstance(tree, dict):
        keys = list(tree)
        return (dict, keys, [_flatten(tree[k], leaves) for k in keys])
    if isinstance(tree, list | tuple) and not hasattr(tree, "_fields"):
        return (type(tree), None, [_flatten(c, leaves) for c in tree])
    leaves.append(tree)
    return None


def tree_unflatten(leaves: list[Any], spec: Spec) -> Any:
    """Rebuild a tree of `spec`'s structure from `leaves`."""
    it = iter(leaves)
    return _unflatten(it, spec)


def _unflatten(it: Any, spec: Spec) -> Any:
    if spec is None:
        return next(it)
    kind, keys, children = spec
    values = [_unflatten(it, c) for c in children]
    if kind is dict:
        return dict(zip(keys, values))
    return kind(values)


def tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    """`tree` with `fn` applied to every leaf."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def spec_str(spec: Spec) -> str:
    """PyTorch's TreeSpec text (for the structure-mismatch messages)."""
    if spec is None:
        return "*"
    kind, keys, children = spec
    name = "dict" if kind is dict else kind.__name__
    inner = ",\n  ".join(spec_str(c) for c in children)
    return f"TreeSpec({name}, {keys if keys is not None else None}, [{inner}])"


def spec_pprint(spec: Spec) -> str:
    """PyTorch's short structure text: `*`, `(*,)`, `[*, *]`, `{'a': *}`."""
    if spec is None:
        return "*"
    kind, keys, children = spec
    parts = [spec_pprint(c) for c in children]
    if kind is dict:
        return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(keys, parts)) + "}"
    if kind is list:
        return "[" + ", ".join(parts) + "]"
    return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
