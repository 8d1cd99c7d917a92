"""`torch.compile` and `torch.compiler`: code written for PyTorch 2 runs unchanged, eagerly.

The engine has no graph compiler: a compiled module or function runs its Python as written
(its eager ops are recorded as they run). As in PyTorch, what leaves the compiled region hangs
off one CompiledFunctionBackward node whose inputs are the leaves the region read (parameters
first, in the module's order) and the tensors passed in; its backward is the eager graph's.
The wrapper is PyTorch's: `torch.compile(model)` is an `OptimizedModule` holding the model as
`_orig_mod` (its state_dict keys say so), and attribute reads and writes go through to it.

>>> import engine as torch
>>> m = torch.compile(torch.nn.Linear(2, 1))
>>> type(m).__name__, list(m.state_dict())
('OptimizedModule', ['_orig_mod.weight', '_orig_mod.bias'])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from engine._tensor import Tensor
from engine.autograd._pytree import tree_flatten, tree_unflatten
from engine.autograd.function import Function
from engine.autograd.grad_mode import is_grad_enabled
from engine.autograd.graph import AccumulateGrad, Node
from engine.autograd.run_backward import grad as autograd_grad
from engine.nn.modules.module import Module

MODES = (
    "default",
    "lite",
    "reduce-overhead",
    "max-autotune-no-cudagraphs",
    "max-autotune",
)


class OptimizedModule(Module):
    """A module as `torch.compile` returns it: `_orig_mod` runs, everything else is its."""

    _opt_mod_attributes = frozenset({"_orig_mod", "dynamo_ctx", "_super_module_initialized"})

    def __init__(self, mod: Module) -> None:
        object.__setattr__(self, "_super_module_initialized", False)
        super().__init__()
        self._super_module_initialized = True
        self._orig_mod = mod

    @property
    def training(self) -> bool:
        return bool(self._orig_mod.training)

    @training.setter
    def training(self, value: bool) -> None:
        if self._super_module_initialized:
            self._orig_mod.training = value

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return run_region(self._orig_mod, args, kwargs, self._orig_mod)

    def __len__(self) -> int:
        try:
            return len(self._orig_mod)
        except TypeError:
            raise TypeError(f"{type(self._orig_mod).__name__} does not support len()") from None

    def __getattr__(self, name: str) -> Any:
        if name == "_orig_mod":
            return self._modules["_orig_mod"]
        return getattr(self._orig_mod, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            super().__setattr__(name, value)
        else:
            setattr(self._orig_mod, name, value)

    def __delattr__(self, name: str) -> None:
        if hasattr(type(self), name) or name in OptimizedModule._opt_mod_attributes:
            super().__delattr__(name)
        else:
            delattr(self._orig_mod, name)

    def __dir__(self) -> list[str]:
        mine = self._orig_mod.__dir__()
        return mine + [a for a in super().__dir__() if a not in mine]


class _Region:
    """What one call of a compiled region made: its differentiable outputs (still attached to
    the eager graph) and the tensors their gradients go to."""

    __slots__ = ("outs", "primals")

    def __init__(self, outs: list[Tensor], primals: list[Tensor]) -> None:
        self.outs, self.primals = outs, primals


class CompiledFunction(Function):
    """The one node a compiled region's outputs hang off (CompiledFunctionBackward)."""

    @staticmethod
    def forward(ctx: Any, region: _Region, *primals: Tensor) -> Any:
        ctx.region = region
        outs = tuple(t.detach().clone() for t in region.outs)
        return outs[0] if len(outs) == 1 else outs

    @staticmethod
    def backward(ctx: Any, *grads: Tensor | None) -> Any:
        region: _Region = ctx.region
        pairs = [(o, g) for o, g in zip(region.outs, grads, strict=True) if g is not None]
        if not pairs:
            return (None, *(None for _ in region.primals))
        got = autograd_grad(
            [o for o, _ in pairs],
            region.primals,
            [g for _, g in pairs],
            retain_graph=True,
            allow_unused=True,
        )
        return (None, *got)


def _primals(outs: list[Tensor], inputs: list[Tensor], module: Module | None) -> list[Tensor]:
    """The region's inputs as PyTorch lifts them: the leaves its graph reads (a module's
    parameters in its own order, then others as found), then the tensors passed in."""
    given = {id(t.grad_fn) for t in inputs if t.grad_fn is not None}
    passed = {id(t) for t in inputs}
    leaves: dict[int, Tensor] = {}
    seen: set[int] = set()
    stack: list[Node | None] = [t.grad_fn for t in outs]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen or id(node) in given:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in passed:
                leaves.setdefault(id(node.variable), node.variable)
            continue
        stack.extend(fn for fn, _ in node.next_functions)
    order = {id(p): i for i, p in enumerate(module.parameters())} if module is not None else {}
    found = sorted(leaves.values(), key=lambda t: order.get(id(t), len(order)))
    return found + inputs


def run_region(
    fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], module: Module | None
) -> Any:
    """Call `fn` eagerly; route what it returns through one CompiledFunction node."""
    result = fn(*args, **kwargs)
    if not is_grad_enabled():
        return result
    leaves, spec = tree_flatten(result)
    outs = [x for x in leaves if isinstance(x, Tensor) and x.requires_grad]
    if not outs:
        return result
    flat_in, _ = tree_flatten((args, kwargs))
    inputs = [x for x in flat_in if isinstance(x, Tensor) and x.requires_grad]
    region = _Region(outs, _primals(outs, inputs, module))
    made = CompiledFunction.apply(region, *region.primals)
    made = made if isinstance(made, tuple) else (made,)
    swap = {id(o): m for o, m in zip(outs, made, strict=True)}
    return tree_unflatten([swap.get(id(x), x) for x in leaves], spec)


def compile(
    model: Callable[..., Any] | None = None,
    *,
    fullgraph: bool = False,
    dynamic: bool | None = None,
    backend: str | Callable[..., Any] = "inductor",
    mode: str | None = None,
    options: dict[str, Any] | None = None,
    disable: bool = False,
    **more: Any,
) -> Any:
    """`torch.compile`: checks its arguments as PyTorch does and runs `model` eagerly."""
    if model is None:

        def decorate(model: Callable[..., Any] | None) -> Any:
            if model is None:
                raise RuntimeError("Model can't be None")
            return compile(
                model,
                fullgraph=fullgraph,
                dynamic=dynamic,
                backend=backend,
                mode=mode,
                options=options,
                disable=disable,
                **more,
            )

        return decorate
    if mode is not None and options is not None:
        raise RuntimeError(
            "Either mode or options can be specified, but both can't be specified at the same time."
        )
    if backend == "inductor" and mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    if not callable(model):
        raise RuntimeError("torch.compile() expects a callable, got " + type(model).__name__)
    if isinstance(model, Module):
        return OptimizedModule(model)
    if disable:
        return model

    @functools.wraps(model)
    def compiled(*args: Any, **kwargs: Any) -> Any:
        return run_region(model, args, kwargs, None)

    return compiled


def disable(fn: Callable[..., Any] | None = None, recursive: bool = True, **_: Any) -> Any:
    """`torch.compiler.disable`: nothing is compiled here, so `fn` as it is."""
    if fn is None:
        return lambda f: f
    return fn


def is_compiling() -> bool:
    return False


def is_dynamo_compiling() -> bool:
    return False


def is_exporting() -> bool:
    return False


def reset() -> None:
    """`torch.compiler.reset`: there are no compiled caches to clear."""


def allow_in_graph(fn: Any) -> Any:
    return fn


def assume_constant_result(fn: Any) -> Any:
    return fn
