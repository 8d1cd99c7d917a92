"""`torch.utils.checkpoint`: recompute a segment's forward during backward.

The non-reentrant variant is PyTorch's: the segment runs under saved-tensor hooks whose pack
keeps only a placeholder, so the graph is the usual one; the first unpack in a backward pass
reruns the function (with the forward's RNG state) under hooks that fill the placeholders, and
stops it as soon as every saved tensor has been recomputed.
"""

from __future__ import annotations

import contextlib
import itertools
import weakref
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.function import Function
from engine.autograd.saved_hooks import saved_tensors_hooks

_WARN = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
    "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
    "use_reentrant=False is recommended, but if you need to preserve the current default "
    "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants."
)
_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""
_EARLY_STOP = [True]


class CheckpointError(RuntimeError):
    """A recomputation that does not match the forward it replays."""


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


# -- the non-reentrant variant -------------------------------------------------------------
class _StopRecomputation(Exception):
    """Raised inside the rerun once every saved tensor is back (PyTorch's early stop)."""


class _Holder:
    """What the forward's pack hook stores instead of a tensor."""

    __slots__ = ("__weakref__", "index")

    def __init__(self, index: int) -> None:
        self.index = index


def _metadata(t: Tensor) -> dict[str, Any]:
    return {"shape": t.shape, "dtype": t.dtype, "device": t.device}


_one_off_ids = itertools.count(1 << 62)


class _Frame:
    """One checkpointed call: its saved placeholders and, per backward pass, what the rerun
    saved in their place."""

    def __init__(
        self,
        rerun: Callable[[], None],
        early_stop: bool,
        metadata: Callable[[Tensor], Any] | None,
    ) -> None:
        self.rerun = rerun
        self.early_stop = early_stop
        self.metadata = metadata
        self.holders: list[weakref.ref[_Holder]] = []
        self.saved_meta: list[Any] = []
        self.recomputed: dict[int, dict[int, Tensor]] = defaultdict(dict)
        self.counter: dict[int, int] = defaultdict(int)

    def forward_hooks(self) -> saved_tensors_hooks:
        def pack(t: Tensor) -> _Holder:
            holder = _Holder(len(self.holders))
            self.holders.append(weakref.ref(holder))
            if self.metadata is not None:
                self.saved_meta.append(self.metadata(t))
            return holder

        def unpack(holder: _Holder) -> Tensor:
            from engine.autograd.engine import current_graph_task_id

            gid = current_graph_task_id()
            if gid == -1:  # read outside backward (`grad_fn._saved_self`): a one-off rerun
                gid = next(_one_off_ids)
            if gid not in self.recomputed:
                self.recompute(gid)
            return self.recomputed[gid][holder.index]

        return saved_tensors_hooks(pack, unpack)

    def recompute(self, gid: int) -> None:
        from engine.autograd.grad_mode import enable_grad

        def pack(t: Tensor) -> Tensor:
            x = t.detach() if t.requires_grad else t
            i = self.counter[gid]
            self.counter[gid] = i + 1
            if i >= len(self.holders):
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation "
                    "than during the original forward pass."
                )
            if self.holders[i]() is not None:
                self.recomputed[gid][i] = x
            if self.early_stop and i + 1 == len(self.holders):
                raise _StopRecomputation
            return x

        self.recomputed[gid] = {}
        try:
            with saved_tensors_hooks(pack, lambda x: x), enable_grad():
                self.rerun()
        except _StopRecomputation:
            pass
        self.check(gid)

    def check(self, gid: int) -> None:
        """PyTorch's determinism check: as many tensors, with the same metadata."""
        if self.counter[gid] != len(self.holders):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the "
                "original forward and recomputation.\n"
                f"Number of tensors saved during forward: {len(self.holders)}\n"
                f"Number of tensors saved during recomputation: {self.counter[gid]}.\n"
                f"{_DEBUG_TIP}"
            )
        if self.metadata is None:
            return
        different = ""
        for i, ref in enumerate(self.holders):
            if ref() is None:
                continue
            now = self.metadata(self.recomputed[gid][i])
            if now != self.saved_meta[i]:
                different += (
                    f"tensor at position {i}:\nsaved metadata: {self.saved_meta[i]}\n"
                    f"recomputed metadata: {now}\n"
                )
        if different:
            raise CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have "
                f"different metadata than during the forward pass.\n{different}.\n{_DEBUG_TIP}"
            )


def _noop_context_fn() -> tuple[contextlib.AbstractContextManager[Any], ...]:
    return contextlib.nullcontext(), contextlib.nullcontext()


def _without_reentrant(
    function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    preserve_rng_state: bool,
    context_fn: Callable[[], Any],
    determinism_check: str,
    early_stop: bool,
) -> Any:
    from engine._random import get_rng_state, set_rng_state

    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}"
        )
    forward_context, recompute_context = context_fn()
    rng = get_rng_state() if preserve_rng_state else None

    def rerun() -> None:
        outer = get_rng_state() if rng is not None else None
        try:
            if rng is not None:
                set_rng_state(rng)
            with recompute_context:
                function(*args, **kwargs)
        finally:
            if outer is not None:
                set_rng_state(outer)

    metadata = _metadata if determinism_check == "default" else None
    frame = _Frame(rerun, early_stop and _EARLY_STOP[0], metadata)
    with frame.forward_hooks(), forward_context:
        return function(*args, **kwargs)


def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Callable[[], Any] = _noop_context_fn,
    determinism_check: str = "default",
    debug: bool = False,
    early_stop: bool = True,
    preserve_rng_state: bool = True,
    **kwargs: Any,
) -> Any:
    """Run `function(*args)` without keeping what it saves for backward: backward reruns it.

    >>> out = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
    """
    if use_reentrant is None:
        warn(_WARN, UserWarning)
        use_reentrant = True
    if use_reentrant:
        if context_fn is not _noop_context_fn or debug is not False:
            raise ValueError(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False."
            )
        if kwargs:
            raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
        return CheckpointFunction.apply(function, *args)
    return _without_reentrant(
        function, args, kwargs, preserve_rng_state, context_fn, determinism_check, early_stop
    )


@contextlib.contextmanager
def set_checkpoint_early_stop(enable: bool) -> Iterator[None]:
    """Turn the rerun's early stop off (or on) for checkpoints made inside."""
    prev = _EARLY_STOP[0]
    _EARLY_STOP[0] = enable
    try:
        yield
    finally:
        _EARLY_STOP[0] = prev


def checkpoint_sequential(
    functions: Any, segments: int, input: Any, use_reentrant: bool | None = None, **kwargs: Any
) -> Any:
    """Run a Sequential's children in `segments` checkpointed chunks."""
    mods = list(functions.children()) if hasattr(functions, "children") else list(functions)
    for m in mods:
        input = checkpoint(m, input, use_reentrant=use_reentrant)
    return input


__all__ = ["checkpoint", "checkpoint_sequential"]
