"""`torch.utils.checkpoint`: recompute a segment's forward during backward."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from engine._tensor import Tensor
from engine.autograd.function import Function

_WARN = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants."
)


class CheckpointFunction(Function):
    """The reentrant variant: one opaque node that reruns `run_function` in backward."""

    @staticmethod
    def forward(ctx: Any, run_function: Callable[..., Any], *args: Any) -> Any:
        ctx.run_function = run_function
        ctx.inputs = args
        ctx.save_for_backward(*[a for a in args if isinstance(a, Tensor)])
        return run_function(*args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        from engine.autograd import backward
        from engine.autograd.grad_mode import enable_grad

        detached = [
            a.detach().requires_grad_(a.requires_grad) if isinstance(a, Tensor) else a
            for a in ctx.inputs
        ]
        with enable_grad():
            outs = ctx.run_function(*detached)
        outs = outs if isinstance(outs, tuple) else (outs,)
        pairs = [(o, g) for o, g in zip(outs, grads, strict=False) if o.requires_grad]
        if pairs:
            backward([o for o, _ in pairs], [g for _, g in pairs])
        return (None, *[a.grad if isinstance(a, Tensor) else None for a in detached])


def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    preserve_rng_state: bool = True,
    **kwargs: Any,
) -> Any:
    """Run `function(*args)`; the non-reentrant variant records the usual graph."""
    if use_reentrant is None:
        warnings.warn(_WARN, UserWarning, stacklevel=2)
        use_reentrant = True
    if use_reentrant:
        return CheckpointFunction.apply(function, *args)
    return function(*args, **kwargs)


def checkpoint_sequential(
    functions: Any, segments: int, input: Any, use_reentrant: bool | None = None, **kwargs: Any
) -> Any:
    """Run a Sequential's children in `segments` checkpointed chunks."""
    mods = list(functions.children()) if hasattr(functions, "children") else list(functions)
    for m in mods:
        input = checkpoint(m, input, use_reentrant=use_reentrant)
    return input


__all__ = ["checkpoint", "checkpoint_sequential"]
