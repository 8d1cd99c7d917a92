"""A batch's end: the captures built into events, their values (small ones inline or as arrays,
large ones summarized, on two threads past PARALLEL_MIN elements), the snippet's names read, and
the events handed to the sink under the event cap."""

from __future__ import annotations

import gc
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson

from engine.tracing import values
from engine.tracing.halting import EventLimit
from engine.tracing.values import dtype_name
from protocol import TensorValue

if TYPE_CHECKING:
    from engine.tracing.tracer import Event, Tracer

_ns = time.perf_counter_ns
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


def _helper() -> ThreadPoolExecutor:
    if not _HELPER:
        _HELPER.append(ThreadPoolExecutor(1, thread_name_prefix="backscope-summaries"))
    return _HELPER[0]


def flush(self: Tracer, keep_last: bool = False, timed: bool = False, names: bool = True) -> None:
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


def end_batch(self: Tracer, keep_last: bool, timed: bool, names: bool) -> None:
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


def finite(self: Tracer) -> None:
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


def full_finite(self: Tracer) -> None:
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


def plain(out: list[Event]) -> list[Event]:
    """The batch as plain JSON data (its arrays as lists: what the wire carries)."""
    try:
        plain: list[Event] = _loads(_dumps(out, option=_NUMPY))
    except TypeError:  # lone surrogates: `values.clean` first (as `_deliver`'s caller does)
        plain = _loads(_dumps(values.clean(out), option=_NUMPY))
    return plain


def summarize(self: Tracer) -> None:
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


def deliver(self: Tracer, out: list[Event]) -> None:
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


def value(self: Tracer, a: np.ndarray[Any, Any], tid: int | None = None) -> TensorValue:
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
