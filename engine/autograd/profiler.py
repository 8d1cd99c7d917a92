"""`torch.autograd.profiler`: `profile`, `record_function`, op timings named as PyTorch's.

Entering a profile swaps timing wrappers onto the op table (`Tensor` methods and operators,
`torch.*` functions, `torch.nn.functional`) and onto the backward walker's per-node call;
leaving restores the originals. Without a profiler the engine therefore pays nothing at all,
not even an `is None` check, and the tracer's observer slot stays untouched.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from engine._upper import UPPER, Label
from engine.autograd.profiler_util import EventList, FunctionEvent, FunctionEventAvg

__all__ = ["EventList", "FunctionEvent", "FunctionEventAvg", "profile", "record_function"]

F = TypeVar("F", bound=Callable[..., Any])
_MISSING = object()


class _Recorder:
    """Open/closed ranges in start order; parents come from the stack of open ranges."""

    def __init__(self, record_shapes: bool) -> None:
        self.names: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.parents: list[int] = []
        self.shapes: list[Any] = []
        self.open: list[int] = []
        self.record_shapes = record_shapes
        # >0 while an op or backward node runs: the engine's own composition of primitives
        # inside it is not ATen's, so only what user code calls directly is recorded
        self.in_op = 0

    def begin(self, name: str, args: tuple[Any, ...] = ()) -> int:
        i = len(self.names)
        self.names.append(name)
        self.parents.append(self.open[-1] if self.open else -1)
        self.shapes.append(_shapes(args) if self.record_shapes else None)
        self.ends.append(0)
        self.open.append(i)
        self.starts.append(time.perf_counter_ns())
        return i

    def end(self, i: int) -> None:
        self.ends[i] = time.perf_counter_ns()
        while self.open and self.open.pop() != i:
            pass

    def events(self, origin: int) -> EventList:
        tid = threading.get_native_id()
        out = [
            FunctionEvent(i, name, tid, (s - origin) / 1e3, ((e or s) - origin) / 1e3, shp)
            for i, (name, s, e, shp) in enumerate(
                zip(self.names, self.starts, self.ends, self.shapes)
            )
        ]
        for evt, parent in zip(out, self.parents):
            if parent >= 0:
                evt.cpu_parent = out[parent]
                out[parent].cpu_children.append(evt)
        return EventList(out)


def _shapes(args: tuple[Any, ...]) -> list[list[int]]:
    return [list(a.shape) if hasattr(a, "_d") else [] for a in args]


_ACTIVE: list[_Recorder] = []


def _timed(fn: Callable[..., Any], name: Label, opaque: bool = True) -> Callable[..., Any]:
    """`fn` recorded as `name`; inside an opaque range the engine's own op calls are not."""
    step = 1 if opaque else 0

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not _ACTIVE:
            return fn(*args, **kwargs)
        rec = _ACTIVE[-1]
        if rec.in_op:
            return fn(*args, **kwargs)
        i = rec.begin(name if isinstance(name, str) else name(args, kwargs), args)
        rec.in_op += step
        try:
            return fn(*args, **kwargs)
        finally:
            rec.in_op -= step
            rec.end(i)

    return wrapper


def _profiled_call(real: Callable[..., Any]) -> Callable[..., Any]:
    """The walker's per-node call, timed as PyTorch's `evaluate_function` and the node."""

    from engine.autograd.function import BackwardCFunction

    def call(task: Any, node: Any, grads: Any) -> Any:
        rec = _ACTIVE[-1]
        name = node.name()
        i = rec.begin(f"autograd::engine::evaluate_function: {name}")
        # shadows the class method; a custom Function's backward is user code: its ops show
        user_code = isinstance(node, BackwardCFunction)
        node.__dict__["apply"] = _timed(node.apply, name, opaque=not user_code)
        try:
            return real(task, node, grads)
        finally:
            node.__dict__.pop("apply", None)
            rec.end(i)

    return call


def _profiled_apply(real: classmethod[Any, Any, Any]) -> classmethod[Any, Any, Any]:
    """`Function.apply` recorded as a range named after the Function, as PyTorch does."""

    def apply(cls: Any, *args: Any, **kwargs: Any) -> Any:
        forward = real.__get__(None, cls)
        return _timed(forward, cls.__name__, opaque=False)(*args, **kwargs)

    return classmethod(apply)


class _Patches:
    """Swap attributes in, remember the originals, put them back."""

    def __init__(self) -> None:
        self.saved: list[tuple[Any, str, Any]] = []

    def install(self) -> None:
        from engine.autograd import engine as walker
        from engine.autograd.function import Function

        seen: set[tuple[int, str]] = set()
        for owner, attr, name in UPPER.profiled_ops():
            if (id(owner), attr) in seen:
                continue
            fn = vars(owner).get(attr, _MISSING)
            if fn is _MISSING or not callable(fn) or isinstance(fn, (type, property)):
                continue
            seen.add((id(owner), attr))
            self._set(owner, attr, _timed(fn, name))
        self._set(walker, "_call", _profiled_call(walker._call))
        self._set(Function, "apply", _profiled_apply(vars(Function)["apply"]))

    def _set(self, owner: Any, attr: str, value: Any) -> None:
        self.saved.append((owner, attr, vars(owner)[attr]))
        setattr(owner, attr, value)

    def restore(self) -> None:
        for owner, attr, value in reversed(self.saved):
            setattr(owner, attr, value)
        self.saved.clear()


class profile:
    """Time every op and backward node inside the block (CPU).

    >>> with torch.autograd.profiler.profile() as prof:
    ...     (x * 2).sum().backward()
    >>> print(prof.key_averages().table(sort_by="self_cpu_time_total"))
    """

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device: str | None = None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config: Any = None,
        acc_events: bool = False,
        custom_trace_id_callback: Any = None,
        post_processing_timeout_s: float | None = None,
        activity_filters: Any = None,
    ) -> None:
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.use_device = use_device
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.function_events: EventList | None = None
        self._recorder: _Recorder | None = None
        self._patches = _Patches()
        self._origin = 0

    def __enter__(self) -> profile:
        if not self.enabled:
            return self
        if _ACTIVE:
            raise RuntimeError("Profiler is already enabled on this thread")
        self._recorder = _Recorder(self.record_shapes)
        self._origin = time.perf_counter_ns()
        self._patches.install()
        _ACTIVE.append(self._recorder)
        return self

    def __exit__(self, *exc: object) -> None:
        if not self.enabled or self._recorder is None:
            return
        _ACTIVE.remove(self._recorder)
        self._patches.restore()
        self.function_events = self._recorder.events(self._origin)

    def _cycle(self) -> EventList:
        """The events so far, and a fresh recorder for what follows (schedule cycles)."""
        assert self._recorder is not None
        events = self._recorder.events(self._origin)
        fresh = _Recorder(self.record_shapes)
        _ACTIVE[_ACTIVE.index(self._recorder)] = fresh
        self._recorder = fresh
        return events

    def _check_finish(self) -> EventList:
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")
        return self.function_events

    def events(self) -> EventList:
        return self._check_finish()

    def key_averages(
        self,
        group_by_input_shape: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
    ) -> EventList:
        """Events grouped by op name (and input shapes when asked)."""
        return self._check_finish().key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by: str | None = None, row_limit: int = 100, **kwargs: Any) -> str:
        return self._check_finish().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def total_average(self) -> FunctionEventAvg:
        return self._check_finish().total_average()

    @property
    def self_cpu_time_total(self) -> float:
        return self._check_finish().self_cpu_time_total

    def export_chrome_trace(self, path: str) -> None:
        """Write the events as a Chrome trace JSON file."""
        self._check_finish().export_chrome_trace(os.fspath(path))

    def __str__(self) -> str:
        return str(self._check_finish())


class record_function:
    """A named range in the profile (context manager and decorator)."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._i: int | None = None
        self._rec: _Recorder | None = None

    def __enter__(self) -> record_function:
        if _ACTIVE:
            self._rec = _ACTIVE[-1]
            self._i = self._rec.begin(self.name)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._rec is not None and self._i is not None:
            self._rec.end(self._i)
        self._rec = self._i = None

    def __call__(self, func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with record_function(self.name, self.args):
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]
