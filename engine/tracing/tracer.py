"""The tracer: an engine observer that captures named tuples (`captures.py`) on the hot path
and turns them into events (`build.py`) in batches (`flush`), off the hot path.

Tensors and nodes each count ids from 0; the id lives on the object itself, so a recycled `id()`
never inherits one. A tensor gets its id when a capture first holds it (`Tracer.number`), a node
when its event is built: both in the order the run makes them, whenever batches are built.
"""

from __future__ import annotations

import gc
import itertools
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from types import FrameType
from typing import Any

import numpy as np
import orjson

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import AccumulateGrad, Node, SavedTensor
from engine.distributed.world import MEMBER
from engine.tracing import captures as cap
from engine.tracing import values
from engine.tracing.build import BUILDERS as _BUILDERS
from engine.tracing.values import dtype_name
from protocol import (
    CutKind,
    GradChangedHow,
    GradMode,
    HookKind,
    RunStatus,
    TensorValue,
    WorkerEvent,
)

Event = Any  # a protocol event (a TypedDict of protocol.WorkerEvent)
Sink = Callable[[list[Event]], None]
_getframe = sys._getframe
_ns = time.perf_counter_ns
_tn = tuple.__new__
_gc_isenabled, _gc_disable, _gc_enable = gc.isenabled, gc.disable, gc.enable
_NodeMade = cap.NodeMade  # (read once per recorded op: a global, not a module attribute)
_dumps, _loads, _NUMPY = orjson.dumps, orjson.loads, orjson.OPT_SERIALIZE_NUMPY
# dtypes of values put into events as arrays (see option `arrays`): orjson writes these as
# `values.inline` would (float32 and float16 in their own shortest digits), NaN/inf aside
_AS_ARRAY = {np.dtype(d) for d in ("float16", "float32", "float64", "int64", "int32", "bool")}
_INLINE, _EXACT, _FLOAT = 0, 1, 2  # built by values.inline / put in as is / put in, checked


def _dtype(dt: np.dtype[Any]) -> tuple[str, int]:
    """A dtype's wire name and how its small values are put into events."""
    how = (_FLOAT if dt.kind == "f" else _EXACT) if dt in _AS_ARRAY else _INLINE
    return dtype_name(dt), how


_DTYPES: dict[np.dtype[Any], tuple[str, int]] = {}  # (read once per value: `_dtype` cached)

# A flush whose summaries hold twice this many elements shares them with a helper
# thread: the passes over the data run without the GIL, so on two cores they overlap.
# (1 << 15 made the MLP B64 step's traced wall time 4.6x untraced against 3.4x, quiet: the
# hand-off costs more than the overlap saves at that size)
PARALLEL_MIN = 1 << 18
_HELPER: list[ThreadPoolExecutor] = []
# Captured moments are sent at least this often (ns), so a run killed from outside (its time
# limit, its memory) still shows what it did until shortly before
FLUSH_EVERY = 250_000_000


def _helper() -> ThreadPoolExecutor:
    if not _HELPER:
        _HELPER.append(ThreadPoolExecutor(1, thread_name_prefix="backscope-summaries"))
    return _HELPER[0]


UNNAMED = 1 << 30  # the depth of no name at all: any name is better
CHILD_SEARCH = 10_000  # modules searched for a child's name before falling back to its class


class EventLimit(BaseException):
    """Raised when a run reaches its event cap (a BaseException: `except Exception` in the
    user's snippet must not swallow it)."""


class RunStopped(BaseException):
    """A `stop` command ended the run (not an error in the snippet)."""


class RunHalted(RunStopped):
    """The run is being ended from outside (a time limit, the user's stop): the tracer has
    sent what it had and said where the snippet was."""

    def __init__(self, why: RunStatus) -> None:
        super().__init__(why)
        self.why: RunStatus = why


_GENERATIONS = itertools.count(1)
_SPAN = 1 << 40  # ids one Ids hands out: far more than a run's event cap allows


class Ids:
    """Stable small integer ids for tensors or nodes, counted from 0 per tracer.

    The id lives on the object itself (`_tr_id`, a class default of 0 on Tensor and Node), offset
    by this Ids' generation: it dies with its object, so a new object at a reused address never
    inherits one, and a lookup is one attribute read, with no weak references to keep. An
    object holds one id at a time: one tracer per process (the worker runs one run).
    """

    __slots__ = ("_next", "hi", "lo")

    def __init__(self) -> None:
        self.lo = next(_GENERATIONS) * _SPAN
        self.hi = self.lo + _SPAN
        self._next = 0

    def get(self, obj: Any) -> int | None:
        """The id already given to `obj`, or None."""
        v: int = obj._tr_id
        return v - self.lo if self.lo <= v < self.hi else None

    def of(self, obj: Any) -> int:
        """The id of `obj`, giving it a new one if it has none."""
        v: int = obj._tr_id
        lo = self.lo
        if lo <= v < self.hi:
            return v - lo
        n = self._next
        self._next = n + 1
        obj._tr_id = lo + n
        return n

    def find(self, n: int, cls: type) -> Any:
        """The live `cls` object with id `n`, or None (a heap scan: for requests, not events)."""
        want = self.lo + n
        for obj in gc.get_objects():
            # type(), not isinstance(): isinstance asks a dead weakref.proxy for its class and
            # raises ReferenceError (any snippet, or library, may leave one in the heap)
            if issubclass(type(obj), cls) and getattr(obj, "_tr_id", 0) == want:
                return obj
        return None


def _mode() -> GradMode:
    if STATE.inference:
        return "inference_mode"
    return "grad" if STATE.enabled else "no_grad"


def _backward_hook_class() -> type:
    """The class whose bound methods carry a module's full backward hooks (internal node
    hooks: the user's module hooks are reported as they fire, these never)."""
    from engine.nn.modules.hooks import BackwardHook

    return BackwardHook


def _module_class() -> type:
    from engine.nn.modules.module import Module

    return Module


class Tracer:
    """Collects the run's events; `flush()` hands finished dicts to the sink.

    Options (all optional): `inline_limit` (elements shown inline, default 64), `batch`
    (captures per flush), `max_events`, `retain`/`retain_bytes` (large arrays kept for
    `tensor_values`), `values_per_tensor`/`values_budget` (full values of tensors up to that
    many elements, until the run's budget of elements is spent: set by the server, off by
    default), `values_request_cap`/`values_answer_budget` (elements one `tensor_values`
    answer / all of a run's answers may hold), `arrays` (the sink writes each batch with
    orjson's OPT_SERIALIZE_NUMPY before it returns, as the worker's does: small values reach it
    as the arrays themselves, and orjson writes them, float32 in float32's shortest digits;
    otherwise each batch is handed over as the plain JSON data those bytes hold).
    """

    def __init__(self, sink: Sink, filename: str, options: dict[str, Any]) -> None:
        self.sink = sink
        self.filename = filename
        self.t0 = _ns()
        self.flushed_at = self.t0
        self.inline = int(options.get("inline_limit", values.INLINE_LIMIT))
        self.max_events = options.get("max_events")
        self.batch = int(options.get("batch", 256))
        self.retain = int(options.get("retain", 1024))
        self.retain_bytes = int(options.get("retain_bytes", 64 << 20))
        self.full_per_tensor = int(options.get("values_per_tensor", 0))
        self.full_left = int(options.get("values_budget", 0))
        self.request_cap = int(options.get("values_request_cap", 1_000_000))
        self.answer_left = int(options.get("values_answer_budget", 2_000_000))
        self.arrays = bool(options.get("arrays", False))
        self.retained_bytes = 0
        self.buf: list[tuple[Any, ...]] = []
        # held by a flush and by a write to stdout/stderr (which may come from any thread)
        self.lock = threading.RLock()
        self.count = 0
        self.tensors = Ids()
        self.nodes = Ids()
        self.cut_results: set[int | None] = set()  # tensors made by a cut point (`untracked`)
        self.retained: OrderedDict[int, np.ndarray[Any, Any]] = OrderedDict()
        self.mstack: list[tuple[Any, str, int]] = []  # (module, name, call number)
        # the stack's path and call numbers (from 0 per run: two calls of one module one after
        # the other are two scopes, though their path is the same), kept for the hot path
        self.mpath: str | None = None
        self.mcalls: tuple[int, ...] | None = None
        self.ncalls = 0
        # the batch's names of tensors (by id()) and how deep in the snippet's calls each was
        # found (0: the top level, or named_parameters()); the name and depth each tensor (by
        # tensor id) was told with: a deeper frame's name never replaces a shallower one, so
        # the name a tensor keeps does not depend on which frames a batch happened to see
        self.names: dict[int, str] = {}
        self.name_depth: dict[int, int] = {}
        self.told: dict[int, tuple[str, int]] = {}
        self.since = 0  # captures since the last batch's end (where names are read)
        self.built: list[Event] = []  # events built, not sent yet
        self.frames: list[FrameType] = []  # snippet frames of captures built since names were read
        self.at: FrameType | None = None  # the snippet frame of the capture being built
        # tensor id -> (grad mode, backward) it was described with, for telling it again
        self.made: dict[int, tuple[GradMode | None, int | None]] = {}
        self.pnames: dict[int, tuple[Tensor, str]] = {}  # parameters, as named_parameters()
        # modules whose parameters are in pnames -> (the module, whether indexed at a call: a
        # module seen in a frame may be half built, its __init__ still adding submodules)
        self.indexed: dict[int, tuple[Any, bool]] = {}
        self.module_paths: dict[int, tuple[Any, str]] = {}  # module -> path when it last ran
        self.vcache: dict[int, tuple[Any, TensorValue]] = {}  # per flush: built values
        self.jobs: list[tuple[np.ndarray[Any, Any], TensorValue]] = []  # big summaries
        # per flush: float values put in as arrays, checked for NaN/inf all at once (`_finite`)
        self.floats: list[tuple[np.ndarray[Any, Any], TensorValue]] = []
        # per flush: large values sent in full as arrays, once their summaries are made
        self.full: list[tuple[np.ndarray[Any, Any], TensorValue]] = []
        self.described: set[int] = set()  # tensor ids that have had a `tensor` event
        # leaves that require grad made before the snippet named them (a parameter made in its
        # module's __init__ and initialised in place there), by id() -> (a weak ref, the line
        # that made it): described (again, if something described it meanwhile) once a batch
        # finds their name (a variable, or named_parameters() once a module ran); also tensors
        # told with a name found inside a snippet function, by the depth of that name: told
        # again if a shallower frame names them (`inp` in forward, `x` at the top level)
        self.unnamed: dict[int, tuple[weakref.ref[Tensor], int | None, int]] = {}
        self.saving: Node | None = None  # the node recorded last, its saved tensors not numbered
        self.node_lines: dict[int, int | None] = {}
        # tensors given to saved-tensor pack hooks, by id of their SavedTensor, until its node's
        # event names them
        self.packed: dict[int, tuple[SavedTensor, Tensor]] = {}
        # version counters (by id) of tensors whose values pending tuples will read at flush:
        # writing into one of them flushes first, so an event shows the values of its moment
        self.unbuilt: set[int] = set()
        self.internal_hooks: set[int] = set()  # hook ids of module backward-hook plumbing
        # `t.data` tensors the snippet made (by id, while they live) -> (their weak ref, t):
        # same storage as t, a version counter of their own. (Not a WeakKeyDictionary: it
        # compares keys with ==, which a tensor answers elementwise.)
        self.aliases: dict[int, tuple[weakref.ref[Tensor], Tensor]] = {}
        # leaves' .grad tensors, by id of their version counter (while they live) -> (a weak
        # ref to the .grad, the leaf)
        self.grads: dict[int, tuple[weakref.ref[Tensor], Tensor]] = {}
        self.backward: Any = None  # engine.tracing.stepper.Backward, set by run_snippet
        # the backward pass running now (nodes and tensors made in it are marked with it)
        self.in_backward: int | None = None
        self.flushing = False
        self.halting: tuple[RunStatus, FrameType | None] | None = None

    def now(self) -> int:
        """ns since the run started: the `t` of an event built now."""
        return _ns() - self.t0

    # -- hot path: capture only ----------------------------------------------------------
    def _site(self) -> tuple[int | None, FrameType | None]:
        f: FrameType | None = _getframe(2)
        fn = self.filename
        while f is not None and f.f_code.co_filename != fn:
            f = f.f_back
        return (f.f_lineno, f) if f is not None else (None, None)

    def _add(self, item: tuple[Any, ...]) -> None:
        self.number(item)
        self.buf.append(item)
        self._next(item[0])

    def add_step(self, item: tuple[Any, ...], grads: list[Any]) -> None:
        """`_add` for a backward step's capture, whose only tensors are its `grads` (the queue's
        entries and the dependency counts hold none): numbered without `number`'s walk."""
        if self.saving is not None:
            self._number_saved()
        of = self.tensors.of
        for g in grads:
            if isinstance(g, Tensor):
                of(g)
        self.buf.append(item)
        self._next(item[0])

    def _next(self, ts: int) -> None:
        """After a capture: build the one before it into events (its moment has passed: the op
        that made it has returned, its outputs' requires_grad is set, its saved tensors are
        stashed), so what an event says is read at a moment the program fixes; send them at a
        batch's end (every `batch` captures), or when FLUSH_EVERY has passed since the last
        send (a moment the machine's speed fixes: it only sends what is built)."""
        buf = self.buf
        if len(buf) > 1:
            self._build(len(buf) - 1)
        self.since += 1
        if self.since >= self.batch:
            self.flush(keep_last=True)
        elif ts - self.flushed_at > FLUSH_EVERY:
            self.flush(keep_last=True, timed=True)

    def _build(self, n: int) -> None:
        """Build the first `n` captures of `buf` into `built`."""
        buf, out, frames = self.buf, self.built, self.frames
        items = buf[:n]
        del buf[:n]
        # a halt (a signal handler between two bytecodes) waits until the events are built
        outer, self.flushing = self.flushing, True
        # the events are acyclic and freed by refcount once the sink has them: without this,
        # their allocations trigger collections that traverse the user's whole (large) graph
        enabled = _gc_isenabled()
        _gc_disable()
        try:
            for item in items:
                f = self.at = item[2]
                _BUILDERS[type(item)](self, item, out)
                if f is not None:
                    frames.append(f)
        finally:
            if enabled:
                _gc_enable()
            self.at = None
            self.flushing = outer
        if not outer and self.halting is not None:
            why, frame = self.halting
            self.halting = None
            self._halt(why, frame)

    def number(self, item: tuple[Any, ...]) -> None:
        """Give every tensor a capture holds (a field, or inside a tuple or list field, two
        levels deep: a module hook's grad tuples) its id now. Ids follow the order the run makes
        and uses tensors, never the moment a batch is built: a batch is also built when
        FLUSH_EVERY has passed, so an id given at build time would depend on the machine's
        speed, and two runs of one snippet would number its tensors differently (a tensor an
        untraced op made, `x = (torch.arange(4) * 0.5).sin()`, is first seen in a capture)."""
        if self.saving is not None:
            self._number_saved()
        of = self.tensors.of
        for f in item[3:]:  # (ts, line, frame) first
            if isinstance(f, Tensor):
                of(f)
            elif isinstance(f, tuple | list):
                for g in f:
                    if isinstance(g, Tensor):
                        of(g)
                    elif isinstance(g, tuple | list):
                        for h in g:
                            if isinstance(h, Tensor):
                                of(h)

    def _number_saved(self) -> None:
        """Ids for the saved tensors of the node recorded last (called at the next capture or
        flush, once the op has stashed them): a saved tensor that is neither an input nor an
        output (masked_fill's mask) was numbered when its node was built, but in a batch built
        after backward had freed the graph it is gone, and every later id came one lower."""
        node, self.saving = self.saving, None
        if node is None:
            return
        of = self.tensors.of
        # (what build.saved_store lists: the node's saved values, a custom Function's packed)
        saved = node._saved
        if saved:
            for v in saved.values():
                t = v._tensor if isinstance(v, SavedTensor) else getattr(v, "t", None)
                if isinstance(t, Tensor):
                    of(t)
        for v in node.__dict__.get("_packed", ()):
            t = v._tensor if isinstance(v, SavedTensor) else getattr(v, "t", None)
            if isinstance(t, Tensor):
                of(t)

    def tensor_made(self, t: Tensor) -> None:
        # its id now, in the order the snippet makes tensors: two runs of one snippet give the
        # same ids however their batches fall (a leaf may be described later, once named)
        self.tensors.of(t)
        self.unbuilt.add(id(t._ver))
        line, frame = self._site()
        self._add(cap.TensorMade(_ns(), line, frame, t, _mode(), self.in_backward))

    def node_made(self, node: Node, outputs: tuple[Tensor, ...], inputs: tuple[Any, ...]) -> None:
        # the hottest capture (once per recorded op): _site, _mode and _add written inline
        f: FrameType | None = _getframe(1)
        fn = self.filename
        while f is not None and f.f_code.co_filename != fn:
            f = f.f_back
        mode = "inference_mode" if STATE.inference else "grad" if STATE.enabled else "no_grad"
        if self.saving is not None:
            self._number_saved()
        self.saving = node  # its saved tensors are stashed once this call has returned
        buf = self.buf
        ts = _ns()
        buf.append(
            _tn(
                _NodeMade,
                (
                    ts,
                    f.f_lineno if f is not None else None,
                    f,
                    node,
                    outputs,
                    inputs,
                    mode,
                    self.mpath,
                    self.mcalls,
                    self.in_backward,
                    MEMBER.rank,
                ),
            )
        )
        add, of = self.unbuilt.add, self.tensors.of
        for t in outputs:
            add(id(t._ver))
            of(t)  # ids in the order the run makes tensors, however batches fall (`number`)
        for t in inputs:
            if t is not None:
                add(id(t._ver))
                of(t)
        self._next(ts)

    def untracked(self, name: str, outputs: tuple[Tensor, ...], inputs: tuple[Any, ...]) -> None:
        # only ops that would have been recorded are cut points (not backward's own math): an
        # input requires grad or is the result of a cut point, so a model run under no_grad is
        # drawn whole, each op on the activations the one before it made
        if self.backward.current is not None:
            return
        tensors, cut = self.tensors, self.cut_results
        for t in inputs:
            if t is not None and (t._rg or tensors.get(t) in cut):
                break
        else:
            return
        for t in outputs:
            cut.add(tensors.of(t))
        add = self.unbuilt.add
        for t in (*outputs, *inputs):
            if t is not None:
                add(id(t._ver))
        line, frame = self._site()
        self._add(
            cap.Untracked(
                _ns(), line, frame, name, outputs, inputs, _mode(), self.mpath, self.mcalls
            )
        )

    def version_bump(self, t: Tensor) -> None:
        """`t` was written in place. A view shares its base's storage and version counter:
        the base's new values are reported too (the view's own only when it was described
        before: the engine makes views to write through, `m[0, 0] = 1`)."""
        line, frame = self._site()
        if (
            self.unnamed
            and id(t) in self.unnamed
            and self.tensors.get(t) not in self.described
            and not self._named_in(t, frame)
        ):
            return  # a leaf not shown yet (nn.init in its module's __init__): its first
            # description, once it is named or used, has the version and values of then
        base = t._base
        if base is None or self.tensors.get(t) in self.described:
            self._bumped(t, line, frame)
        if base is not None:
            self._bumped(base, line, frame)
        written = [t] if base is None else [t, base]
        if self.aliases:
            # a write through `p.data` changes p's values, though not p's version
            for w in list(written):
                entry = self.aliases.get(id(w))
                if entry is not None and entry[0]() is w:
                    self._bumped(entry[1], line, frame)
                    written.append(entry[1])
        if self.grads:
            # a write into a leaf's .grad (clip_grad_norm_): the leaf's .grad changed
            for w in written:
                held = self.grads.get(id(w._ver))
                g = held[1]._grad if held is not None and held[0]() is not None else None
                if held is not None and g is not None and g._ver is w._ver:
                    self.grad_reset(held[1], "written")

    def alias(self, data: Tensor, src: Tensor) -> None:
        """`data` is `src.data`: its storage is src's (writes into it change src)."""
        aliases, key = self.aliases, id(data)
        aliases[key] = (weakref.ref(data, lambda _: aliases.pop(key, None)), src)

    def _bumped(self, t: Tensor, line: int | None, frame: FrameType | None) -> None:
        d = t._d
        if d.size <= self.inline:
            d = d.copy()
        else:
            self.unbuilt.add(id(t._ver))
        self._add(cap.Bumped(_ns(), line, frame, t, t._ver[0], d, t._fn))

    def rebased(self, t: Tensor, out: Tensor) -> None:
        """An in-place op recorded its node with output `out`; the tensor it returns is `t`.
        (Its capture is the newest, not built yet: `_next` builds one only at the next.)"""
        buf = self.buf
        for i in range(len(buf) - 1, max(-1, len(buf) - 8), -1):
            item = buf[i]
            if type(item) is cap.NodeMade and any(o is out for o in item.outputs):
                outs = tuple(t if o is out else o for o in item.outputs)
                buf[i] = item._replace(outputs=outs)
                self.unbuilt.add(id(t._ver))
                self.tensors.of(t)
                return

    def before_write(self, t: Tensor) -> None:
        """Called before the engine writes into `t`'s memory in place."""
        if id(t._ver) in self.unbuilt:
            # (`unbuilt` changes only where the program says: a batch's end, this flush)
            self.flush()

    # -- calls the snippet makes (the engine tells them with the calling frame) -------------
    def _by_snippet(self, caller: FrameType | None, through: str | None = None) -> bool:
        """Whether `caller` is the snippet's own code (skipping frames of functions named
        `through`, e.g. requires_grad_): the engine's internal calls are not cut points."""
        if through is not None:
            while caller is not None and caller.f_code.co_name == through:
                caller = caller.f_back
        return caller is not None and caller.f_code.co_filename == self.filename

    def detached(
        self, kind: CutKind, t: Tensor, out: Tensor | None, was_rg: bool, caller: FrameType
    ) -> None:
        """detach()/detach_()/.data was called on `t` (`was_rg`: t required grad before)."""
        if kind == "data":
            if not self._by_snippet(caller):
                return
            assert out is not None
            self.alias(out, t)
        elif not was_rg or not self._by_snippet(caller):
            return
        if was_rg:
            self.cut(kind, t, out)

    def requires_grad_changed(self, t: Tensor, caller: FrameType) -> None:
        if self._by_snippet(caller, "requires_grad_"):
            self.requires_grad_set(t, t._rg)

    def grad_retained(self, t: Tensor, caller: FrameType) -> None:
        if self._by_snippet(caller):
            self.retain_grad(t)

    def grad_assigned(self, t: Tensor, caller: FrameType) -> None:
        if self._by_snippet(caller):
            self.grad_reset(t, "assigned")

    def grads_zeroed(self, params: list[Tensor], caller: FrameType) -> None:
        """zero_grad reset the `.grad` of `params` (each had one)."""
        if self._by_snippet(caller):
            for p in params:
                self.grad_reset(p, "set_to_none" if p._grad is None else "zeroed")

    def cut(self, kind: CutKind, t: Tensor, out: Tensor | None) -> None:
        """The snippet called detach()/.data/detach_() on `t`."""
        line, frame = self._site()
        self.unbuilt.add(id(t._ver))
        self._add(cap.CutMade(_ns(), line, frame, kind, t, out))

    def requires_grad_set(self, t: Tensor, value: bool) -> None:
        line, frame = self._site()
        self._add(cap.RequiresGradSet(_ns(), line, frame, t, value))

    def retain_grad(self, t: Tensor) -> None:
        line, frame = self._site()
        self._add(cap.GradRetained(_ns(), line, frame, t))

    def grad_reset(self, t: Tensor, how: GradChangedHow, hook: int | None = None) -> None:
        """`t.grad` changed outside backward (zero_grad, an assignment, a hook)."""
        g = t._grad
        data = g._d.copy() if g is not None else None
        line, frame = self._site() if hook is None else (None, None)
        self._add(cap.GradReset(_ns(), line, frame, t, how, data, hook))

    # -- hooks -----------------------------------------------------------------------------
    def hook_registered(self, hook_id: int, kind: HookKind, target: Any, fn: Any) -> None:
        if isinstance(getattr(fn, "__self__", None), _backward_hook_class()):
            self.internal_hooks.add(hook_id)  # the plumbing of a module's backward hooks
            return
        path = self.module_paths.get(id(target))
        mpath = path[1] if path is not None and path[0] is target else None
        line, frame = self._site()
        self._add(cap.HookRegistered(_ns(), line, frame, hook_id, kind, target, fn, mpath))

    def hook_removed(self, hook_id: int) -> None:
        if hook_id in self.internal_hooks:
            return
        line, frame = self._site()
        self._add(cap.HookRemoved(_ns(), line, frame, hook_id))

    def hook_before(self, kind: str, args: tuple[Any, ...]) -> Any:
        """Called before a hook runs. A post-accumulate hook may change or clear `.grad` (the
        fused optimizer step), so the `.grad` it is given is kept now: (tensor, version, wire
        value)."""
        if kind != "post_accumulate" or args[0]._grad is None:
            return None
        g = args[0]._grad
        return (g, g._ver[0], values.value(g._d, self.inline))

    def hook_fired(
        self, kind: HookKind, hook_id: int, args: tuple[Any, ...], out: Any, before: Any = None
    ) -> None:
        if hook_id in self.internal_hooks:
            return
        bw = self.backward
        mpath = None
        if kind.startswith("module_"):
            path = self.module_paths.get(id(args[0]))
            mpath = path[1] if path is not None and path[0] is args[0] else None
        changed = False
        if kind == "post_accumulate":
            g = args[0]._grad
            if g is not None:
                self.unbuilt.add(id(g._ver))
            kept = before[0] if before is not None else None
            changed = g is not kept or (g is not None and g._ver[0] != before[1])
        forward = kind in ("module_forward_pre", "module_forward")
        backward = None if forward else bw.bid
        node = None if forward else bw.current
        self._add(
            cap.HookFired(
                _ns(), None, None, kind, hook_id, args, out, backward, node, before, mpath
            )
        )
        if changed:
            self.grad_reset(args[0], "hook", hook_id)

    def grad_accumulated(self, var: Tensor, grad: Tensor) -> None:
        """Called by the engine right after it adds `grad` into `var.grad`: in a backward's
        AccumulateGrad node, or after the walk for `backward(inputs=...)`."""
        total = var._grad
        add = self.unbuilt.add
        add(id(grad._ver))
        if total is not None:
            add(id(total._ver))
        if total is not None and id(total._ver) not in self.grads:
            grads, key = self.grads, id(total._ver)
            grads[key] = (weakref.ref(total, lambda _: grads.pop(key, None)), var)
        node = self.backward.current
        if type(node) is not AccumulateGrad:
            node = var._acc
        self._add(cap.Accumulated(_ns(), None, None, self.backward.bid, node, var, grad, total))

    def saved_packed(self, saved: SavedTensor, tensor: Tensor) -> None:
        """A saved-tensor pack hook ran: the tensor it was given, for the node's event."""
        self.tensors.of(tensor)
        self.packed[id(saved)] = (saved, tensor)

    def saved_unpack(self, saved: SavedTensor, node: Node | None) -> None:
        # the saved tensor's name, read now: the node's buffers may be freed before a flush
        from engine.tracing.build import saved_store

        store = saved_store(node) if node is not None else {}
        name = next((k for k, v in store.items() if v is saved), None)
        self._add(cap.Unpacked(_ns(), None, None, saved, node, name))

    # -- module scopes ---------------------------------------------------------------------
    def module_enter(self, module: Any, name: str | None = None) -> None:
        """Called by nn.Module.__call__ before forward."""
        if not self.mstack:
            self.index_parameters(module, called=True)
        if name is None:
            name = self._child_name(module)
        call = self.ncalls
        self.ncalls = call + 1
        self.mstack.append((module, name, call))
        self._scope_changed()
        path = self.mpath
        assert path is not None
        self.module_paths[id(module)] = (module, path)
        params = getattr(module, "_parameters", None)
        if params:
            # named as `named_parameters()` of the outermost module running names them
            prefix = "".join(f"{n}." for _, n, _ in self.mstack[1:])
            for k, p in params.items():
                if isinstance(p, Tensor):
                    self.pnames.setdefault(id(p), (p, f"{prefix}{k}"))
        line, frame = self._site()
        self._add(cap.ModuleEntered(_ns(), line, frame, path, type(module).__name__, call))

    def module_exit(self, module: Any) -> None:
        """Called by nn.Module.__call__ after forward (also when it raised)."""
        path = self.mpath
        call = None
        while self.mstack:
            m, _, call = self.mstack.pop()
            if m is module:
                break
        self._scope_changed()
        self._add(cap.ModuleExited(_ns(), None, None, path, call))

    def index_parameters(self, module: Any, called: bool = False) -> None:
        """Name `module`'s parameters as its `named_parameters()` does: a parameter a submodule
        never runs with (`self_attn.out_proj.weight`, used through F.linear) is named too. Once
        per module, and once more at its first call (`called`) if it was first seen in a frame,
        perhaps half built."""
        seen = self.indexed.get(id(module))
        if seen is not None and (seen[1] or not called):
            return
        self.indexed[id(module)] = (module, called)  # (held: its id must not be reused)
        try:
            named = list(module.named_parameters())
        except Exception:  # a snippet's own override may fail: names are a courtesy
            return
        for name, p in named:
            if isinstance(p, Tensor) and isinstance(name, str):
                self.pnames.setdefault(id(p), (p, name))

    def _scope_changed(self) -> None:
        self.mpath = ".".join(n for _, n, _ in self.mstack) or None
        self.mcalls = tuple(c for _, _, c in self.mstack) or None

    def _child_name(self, module: Any) -> str:
        """`module`'s name under the module running it, as `named_modules()` names it: through
        containers that are never called themselves (`layers.0` of a ModuleList)."""
        if self.mstack:
            todo: list[tuple[str, Any]] = [("", self.mstack[-1][0])]
            seen = 0
            while todo and seen < CHILD_SEARCH:  # breadth first: the shortest path wins
                prefix, parent = todo.pop(0)
                for k, m in (getattr(parent, "_modules", None) or {}).items():
                    if m is module:
                        return f"{prefix}{k}"
                    if m is not None:
                        todo.append((f"{prefix}{k}.", m))
                seen += 1
        return type(module).__name__

    def emit(self, event: WorkerEvent) -> None:
        """An event built by the caller (stdout, error, pauses): keeps stream order."""
        self._add(cap.Raw(_ns(), None, None, event))  # type: ignore[arg-type]

    def drive(self, steps: Any) -> None:
        self.backward.drive(steps)

    # -- halting ---------------------------------------------------------------------------
    def halt(self, why: RunStatus, frame: FrameType | None) -> None:
        """The server is about to end the run (a signal handler calls this between two
        bytecodes of the snippet): send what was captured, say where the snippet is, and
        raise RunHalted. Inside a flush, the flush finishes first (a frame half sent would
        break the stream)."""
        if self.flushing:
            self.halting = (why, frame)
            return
        self._halt(why, frame)

    def _halt(self, why: RunStatus, frame: FrameType | None) -> None:
        lines = []
        f = frame
        while f is not None:
            if f.f_code.co_filename == self.filename:
                lines.append(f.f_lineno)
            f = f.f_back
        lines.reverse()
        self.flush()
        self.emit(
            {
                "type": "halted",
                "t": self.now(),
                "why": why,
                "line": lines[-1] if lines else None,
                "lines": lines,
            }
        )
        self.flush()
        raise RunHalted(why)

    # -- batch side: build dicts ---------------------------------------------------------
    def flush(self, keep_last: bool = False, timed: bool = False, names: bool = True) -> None:
        """Build the captures not built yet (all, or all but the newest: `keep_last`), read the
        snippet's names (`names`) and hand the built events to the sink. `timed`: because
        FLUSH_EVERY has passed, at a moment that depends on the machine's speed: then nothing
        is built and no name read, only what is built is sent, so the stream is the same
        whenever (and whether) timed sends happen."""
        # a snippet's threads print too: a flush in one thread waits for another's to end
        # (returning at once would leave what the waiting thread wrote unsent at the run's end)
        with self.lock:
            if self.flushing:  # (a flush the sink itself caused: the outer one sends everything)
                return
            self.flushing = True
            try:
                self._flush(keep_last, timed, names)
            finally:
                self.flushing = False
        if self.halting is not None:
            why, frame = self.halting
            self.halting = None
            self._halt(why, frame)

    def _flush(self, keep_last: bool, timed: bool, names: bool) -> None:
        self.flushed_at = _ns()
        if not timed:
            if not keep_last and self.saving is not None:
                self._number_saved()  # (between captures: the last op has stashed what it saves)
            buf = self.buf
            if len(buf) > keep_last:
                self._build(len(buf) - keep_last)
            if not buf:  # (with one capture held back the set stays: a superset is safe)
                self.unbuilt = set()
        out, self.built = self.built, []
        # names are read only where the run itself puts a batch's end (every `batch` captures
        # counted from the last end, a printed line, a pause, a write into a tensor a built
        # event shows, the end), never at a timed send: which variable holds which tensor
        # changes as the snippet runs. Built events name only tensors named at an
        # earlier end; one this end finds a (better) name for is told again with it
        if not timed and names and (self.since or self.frames):
            self.since = 0
            frames, self.frames = self.frames, []
            self._resolve_names(frames)
            if self.unnamed:
                self._named_late(out)
            self.names, self.name_depth = {}, {}
        if not timed:
            # (values built from here on are read after this moment: a write may follow)
            self.vcache = {}
        if not out:
            return
        # the events are acyclic and freed by refcount once the sink has them: without this,
        # their allocations trigger collections that traverse the user's whole (large) graph
        enabled = gc.isenabled()
        gc.disable()
        try:
            if self.floats:
                self._finite()
            self._summarize()
            if self.full:
                self._full_finite()
            if not self.arrays:
                out = self._plain(out)
            try:
                self._deliver(out)
            except TypeError:  # orjson refuses strings with lone surrogates (a module's name)
                self._deliver(values.clean(out))
        finally:
            if enabled:
                gc.enable()

    def _finite(self) -> None:
        """The batch's float values put in as arrays: any with a NaN or an infinity gets the
        inline form instead (strings for them, and their counts). One pass over all of them:
        the common case, all finite, costs a few calls per batch rather than per value."""
        floats, self.floats = self.floats, []
        if np.isfinite(np.concatenate([a for a, _ in floats], axis=None)).all():
            return
        for a, v in floats:
            if not np.isfinite(a).all():
                del v["values"]  # (the inline form's keys in its order: counts, then values)
                values.inline(a, v)

    def _full_finite(self) -> None:
        """Large values sent in full as arrays: one with a NaN or an infinity (its summary
        counted them) gets the inline form instead."""
        full, self.full = self.full, []
        for a, v in full:
            if v.get("nan") or v.get("inf"):
                # (in the inline form's order, as values without arrays are: the summary after)
                # (stats and histogram only when some element is finite)
                sample, stats, hist = (
                    v.pop("sample", None),
                    v.pop("stats", None),
                    v.pop("hist", None),
                )
                for key in ("values", "nan", "inf"):
                    v.pop(key, None)  # type: ignore[misc]
                values.inline(a, v)
                v["sample"] = sample
                if stats is not None and hist is not None:
                    v["stats"], v["hist"] = stats, hist

    @staticmethod
    def _plain(out: list[Event]) -> list[Event]:
        """The batch as plain JSON data (its arrays as lists: what the wire carries)."""
        try:
            plain: list[Event] = _loads(_dumps(out, option=_NUMPY))
        except TypeError:  # lone surrogates: `values.clean` first (as `_deliver`'s caller does)
            plain = _loads(_dumps(values.clean(out), option=_NUMPY))
        return plain

    def _summarize(self) -> None:
        """Fill in the batch's large summaries, on this thread and a helper thread at once."""
        jobs, self.jobs = self.jobs, []
        if not jobs:
            return
        if sum(a.size for a, _ in jobs) < 2 * PARALLEL_MIN:
            values.summarize_all(jobs)
            return
        # the largest first, each to whichever side has less so far: two even halves
        jobs.sort(key=lambda job: job[0].size, reverse=True)
        halves: tuple[list[Any], list[Any]] = ([], [])
        sizes = [0, 0]
        for job in jobs:
            side = 0 if sizes[0] <= sizes[1] else 1
            halves[side].append(job)
            sizes[side] += job[0].size
        done = _helper().submit(values.summarize_all, halves[1])
        try:
            values.summarize_all(halves[0])
        finally:
            done.result()

    def _deliver(self, out: list[Event]) -> None:
        """Hand built events to the sink, enforcing the event cap."""
        if self.max_events is not None and self.count + len(out) > self.max_events:
            out = out[: max(0, self.max_events - self.count)]
            if out:
                self.sink(out)
            self.count += len(out)
            raise EventLimit(f"event limit of {self.max_events} reached")
        if out:
            self.sink(out)
        self.count += len(out)

    def _named_late(self, out: list[Event]) -> None:
        """A `tensor` event (again) for each tensor this batch found a better name for (none
        before, or one from a deeper frame): whether and when a tensor gets its name must not
        depend on when a batch was built."""
        from engine.tracing.build import tensor_info

        # stamped as the batch's last event (a tuple held back for the next batch is older
        # than now: the stream's times must not go back)
        # (with nothing else in the batch, nothing is held back either: now is the newest)
        now = out[-1]["t"] if out else self.now()
        names, depth, unnamed = self.names, self.name_depth, self.unnamed
        # (the batch's names are a few frames' variables; the unnamed may be every tensor of
        # a long run: look the one up in the other)
        for key in [k for k in names if k in unnamed and depth[k] < unnamed[k][2]]:
            ref, line, _ = unnamed.pop(key)
            t = ref()
            if t is not None:
                out.append({"type": "tensor", "t": now, "tensor": tensor_info(self, t, line)})

    def _named_in(self, t: Tensor, frame: FrameType | None) -> bool:
        """Whether the snippet's `frame` names `t` now: a variable, or a parameter of a module
        it holds (`lin.weight.copy_(...)` names lin's weight before any op used it)."""
        if frame is None:
            return False
        module = None
        for k, v in list(frame.f_locals.items()):
            if v is t and not k.startswith("__"):
                return True
            if isinstance(v, Tensor) or not hasattr(v, "_parameters"):
                continue
            module = module or _module_class()
            if isinstance(v, module):
                self.index_parameters(v)
        return id(t) in self.pnames

    def name_now(self, t: Tensor) -> tuple[str, int] | None:
        """The name and depth the snippet's frames give `t` now, from the frame of the capture
        being built up: the top level's variable, then named_parameters(), then the shallowest
        function's (as `_resolve_names`). For a leaf that requires grad, described when first
        built or used (a capture is built when the next one is made: a moment the program
        fixes), so its box is drawn with the name it keeps."""
        chain: list[FrameType] = []
        f = self.at
        fn = self.filename
        while f is not None:
            if f.f_code.co_filename == fn:
                chain.append(f)
            f = f.f_back
        deeper = None
        module = None
        for d, g in enumerate(reversed(chain)):
            for k, v in list(g.f_locals.items()):
                if v is t:
                    if k.startswith("__"):
                        continue
                    if d == 0:
                        return k, 0
                    if deeper is None:
                        deeper = (k, d)
                elif (
                    not isinstance(v, Tensor)
                    and id(v) not in self.indexed
                    and hasattr(v, "_parameters")
                ):
                    module = module or _module_class()
                    if isinstance(v, module):
                        self.index_parameters(v)
        held = self.pnames.get(id(t))
        if held is not None and held[0] is t:
            return held[1], 0
        return deeper

    def unnamed_tensor(self, t: Tensor, line: int | None, depth: int = UNNAMED) -> None:
        """`t` has no name yet (or one from `depth` snippet calls down): a leaf that requires
        grad, not described until a batch names it or an op uses it, or a tensor described
        without its best name (told again once a shallower frame names it)."""
        unnamed, key = self.unnamed, id(t)
        if key not in unnamed:
            unnamed[key] = (weakref.ref(t, lambda _: unnamed.pop(key, None)), line, depth)
        elif depth < unnamed[key][2]:
            unnamed[key] = (*unnamed[key][:2], depth)

    def _resolve_names(self, seen: list[FrameType]) -> None:
        # the user's names, looked up once per batch in the snippet frames seen in it and the
        # snippet frames that called them, shallowest first: the top level's `x` before the
        # `inp` of the forward it was passed to, whichever of the two frames ran the ops
        depths: dict[int, int] = {}
        frames: list[tuple[int, FrameType]] = []
        for start in seen:
            if id(start) in depths:
                continue
            chain = []
            f: FrameType | None = start
            while f is not None and id(f) not in depths:
                if f.f_code.co_filename == self.filename:
                    chain.append(f)
                f = f.f_back
            below = depths[id(f)] + 1 if f is not None else 0
            for d, g in enumerate(reversed(chain), below):
                depths[id(g)] = d
                frames.append((d, g))
        frames.sort(key=lambda df: df[0])  # (stable: siblings in the order seen)
        found: list[tuple[int, str, Tensor]] = []
        module = None
        for d, g in frames:
            for k, v in list(g.f_locals.items()):
                if isinstance(v, Tensor):
                    if not k.startswith("__"):
                        found.append((d, k, v))
                elif id(v) not in self.indexed and hasattr(v, "_parameters"):
                    module = module or _module_class()
                    if isinstance(v, module):
                        self.index_parameters(v)
        # the top level's variables, then named_parameters(), then the functions' locals
        names: dict[int, str] = {}
        depth: dict[int, int] = {}
        self.names, self.name_depth = names, depth
        top = [(d, k, v) for d, k, v in found if d == 0]
        params = [(0, name, t) for t, name in self.pnames.values()]
        for d, k, v in itertools.chain(top, params, found[len(top) :]):
            if id(v) not in names:
                names[id(v)] = k
                depth[id(v)] = d

    def value(self, a: np.ndarray[Any, Any], tid: int | None = None) -> TensorValue:
        """An array's wire value; large ones are retained for `tensor_values` (bounded)."""
        # one array is often shown by several events of a batch (a gradient leaves one node
        # and enters the next): build its value once per flush; the cache keeps `a` alive,
        # so its id() cannot be reused within the flush
        hit = self.vcache.get(id(a))
        if hit is not None and hit[0] is a:
            return hit[1]
        dt = a.dtype
        known = _DTYPES.get(dt)
        if known is None:
            known = _DTYPES[dt] = _dtype(dt)
        name, how = known
        v: TensorValue = {"shape": list(a.shape), "dtype": name}
        size = a.size
        if size <= self.inline:  # the common case, kept short
            if how and a.ndim and a.flags.c_contiguous:
                # the array itself: the sink's orjson writes it (it is serialized within this
                # flush, before the run goes on to write into it)
                v["values"] = a
                if how == _FLOAT:
                    self.floats.append((a, v))
            else:
                values.inline(a, v)
            self.vcache[id(a)] = (a, v)
            return v
        if a.size <= self.full_per_tensor and a.size <= self.full_left:
            # full values within the run's budget: finished runs show heatmaps and tables
            self.full_left -= a.size
            if how and a.flags.c_contiguous:
                v["values"] = a  # (as above; its summary counts its NaN/inf: `_full_finite`)
                self.full.append((a, v))
            else:
                values.inline(a, v)
        # summarized at the end of the flush, all together (their samples and histograms in
        # a few NumPy calls) and, past PARALLEL_MIN elements, on two threads
        self.jobs.append((a, v))
        self.vcache[id(a)] = (a, v)
        if tid is not None and tid not in self.retained:
            # bounded by count and bytes; the oldest go first
            self.retained[tid] = a
            self.retained_bytes += a.nbytes
            while self.retained and (
                len(self.retained) > self.retain or self.retained_bytes > self.retain_bytes
            ):
                self.retained_bytes -= self.retained.popitem(last=False)[1].nbytes
        return v
