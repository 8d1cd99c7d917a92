"""The tracer: an engine observer that captures named tuples (`captures.py`) on the hot path
and turns them into events (`build.py`) in batches (`flush`), off the hot path.

`Tracer` holds the run's state and the capture path; its other parts live in modules named by
concept, written as functions of the tracer and bound here as its methods (one call, as before):
`batches` (a batch's end: values, summaries, delivery), `naming` (the snippet's names for
tensors), `scopes` (module scopes), `grad_state` (detach, requires_grad_, .grad changes),
`hooks`, `halting` (how a run ends early), and `ids` (the tensors' and nodes' ids).

Tensors and nodes each count ids from 0; the id lives on the object itself, so a recycled `id()`
never inherits one. A tensor gets its id when a capture first holds it (`Tracer.number`), a node
when its event is built: both in the order the run makes them, whenever batches are built.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from types import FrameType
from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Node, SavedTensor
from engine.distributed.world import MEMBER
from engine.tracing import batches, grad_state, halting, hooks, naming, scopes, values
from engine.tracing import captures as cap
from engine.tracing.build import BUILDERS as _BUILDERS
from engine.tracing.ids import Ids
from protocol import (
    GradMode,
    RunStatus,
    TensorValue,
    WorkerEvent,
)
from protocol.scopes import Scope

Event = Any  # a protocol event (a TypedDict of protocol.WorkerEvent)
Sink = Callable[[list[Event]], None]
_getframe = sys._getframe
_ns = time.perf_counter_ns
_tn = tuple.__new__
_gc_isenabled, _gc_disable, _gc_enable = gc.isenabled, gc.disable, gc.enable
_NodeMade = cap.NodeMade  # (read once per recorded op: a global, not a module attribute)
# Captured moments are sent at least this often (ns), so a run killed from outside (its time
# limit, its memory) still shows what it did until shortly before
FLUSH_EVERY = 250_000_000
# Captures are built into events this many at a time, and at the points the program fixes
# that need them built (a batch's end, a write into a tensor they show, the snippet changing
# a tensor's autograd state: `state_changing`):
# the builders running in a tight loop cost less than each capture built as the next is made
# (the 100-op chain traced: 4.1x untraced against 6.0x, thread CPU time, one run). A timed
# send is up to this many captures behind the run; building at the timed moment instead
# would make what an event says depend on the machine's speed.
BUILD_EVERY = 32


def _mode() -> GradMode:
    if STATE.inference:
        return "inference_mode"
    return "grad" if STATE.enabled else "no_grad"


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
        self.mstack: list[Scope] = []  # (module, name, call number)
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

    # -- hot path: capture only ----------------------------------------------------------------
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
        """After a capture: every BUILD_EVERY captures, build the ones before it into events
        (their moment has passed: the op that made each has returned, its outputs'
        requires_grad is set, its saved tensors are stashed), so what an event says is read at
        a moment the program fixes; send them at a batch's end (every `batch` captures), or
        when FLUSH_EVERY has passed since the last send (a moment the machine's speed fixes: it
        only sends what is built)."""
        buf = self.buf
        if len(buf) > BUILD_EVERY:
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
        (Its capture is among the newest, not built yet: `_next` builds only older ones.)"""
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

    # -- autograd state the snippet changes, gradients accumulated (grad_state.py) -------------
    _by_snippet = grad_state.by_snippet
    detached = grad_state.detached
    state_changing = grad_state.state_changing
    requires_grad_changed = grad_state.requires_grad_changed
    grad_retained = grad_state.grad_retained
    grad_assigned = grad_state.grad_assigned
    grads_zeroed = grad_state.grads_zeroed
    cut = grad_state.cut
    requires_grad_set = grad_state.requires_grad_set
    retain_grad = grad_state.retain_grad
    grad_reset = grad_state.grad_reset
    grad_accumulated = grad_state.grad_accumulated

    # -- hooks (hooks.py) ----------------------------------------------------------------------
    hook_registered = hooks.hook_registered
    hook_removed = hooks.hook_removed
    hook_before = hooks.hook_before
    hook_fired = hooks.hook_fired
    saved_packed = hooks.saved_packed
    saved_unpack = hooks.saved_unpack

    # -- module scopes (scopes.py) -------------------------------------------------------------
    module_enter = scopes.module_enter
    module_exit = scopes.module_exit
    _scope_changed = scopes.scope_changed
    _child_name = scopes.child_name

    # -- the snippet's names (naming.py) -------------------------------------------------------
    index_parameters = naming.index_parameters
    _named_late = naming.named_late
    _named_in = naming.named_in
    name_now = naming.name_now
    unnamed_tensor = naming.unnamed_tensor
    _resolve_names = naming.resolve_names

    def emit(self, event: WorkerEvent) -> None:
        """An event built by the caller (stdout, error, pauses): keeps stream order."""
        self._add(cap.Raw(_ns(), None, None, event))  # type: ignore[arg-type]

    def drive(self, steps: Any) -> None:
        self.backward.drive(steps)

    # -- halting (halting.py) ------------------------------------------------------------------
    halt = halting.halt
    _halt = halting.halt_now

    # -- a batch's end (batches.py) ------------------------------------------------------------
    flush = batches.flush
    _flush = batches.end_batch
    _finite = batches.finite
    _full_finite = batches.full_finite
    _plain = staticmethod(batches.plain)
    _summarize = batches.summarize
    _deliver = batches.deliver
    value = batches.value
