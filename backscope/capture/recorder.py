"""The recorder: ids for real torch tensors and nodes, the user's frames, lines and names, and
the event buffer handed to a sink in batches.

Values are read when an event is built (at once: a later in-place write must not change what
an earlier event showed); names are filled in at a batch's end, from the user's frames (the
variable a result is bound to exists only after the statement that made it). A batch ends where
the program puts it (every BATCH events, a printed line, a pause, a backward's start and end, the
run's end); a timed send (FLUSH_EVERY_NS has passed, a moment the machine's speed fixes) reads no
name and only sends the events before the first one still waiting for its names, so the stream
is the same whenever (and whether) timed sends fall.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import torch
from torch.utils.weak import WeakIdKeyDictionary

from backscope.capture import values
from backscope.capture.saved import saved_values, version_of
from protocol import EdgeRef, GradChangedHow, GradMode, TensorInfo, TensorValue

Event = dict[str, Any]
Sink = Callable[[list[Event]], None]
FLUSH_EVERY_NS = 250_000_000  # captured events are sent at least this often
BATCH = 256
ACCUMULATE = "torch::autograd::AccumulateGrad"


class EventLimit(BaseException):
    """The run reached its event cap (a BaseException: the user's `except Exception` must not
    swallow it)."""


class RunStopped(BaseException):
    """The page said stop: the user's code is interrupted where it is."""


def grad_mode() -> GradMode:
    if torch.is_inference_mode_enabled():
        return "inference_mode"
    return "grad" if torch.is_grad_enabled() else "no_grad"


class Recorder:
    """One watched run's ids, buffer and sink.

    `files`: the user's source files (lines and names come from frames running them);
    `prefixes`: directories whose files count as the user's too (a notebook's cells).
    Options: `inline_limit`, `max_events`, `values_per_tensor`, `values_budget`.
    """

    def __init__(
        self,
        sink: Sink,
        files: set[str],
        options: dict[str, Any] | None = None,
        prefixes: tuple[str, ...] = (),
    ) -> None:
        opts = options or {}
        self.sink = sink
        self.files = files
        self.prefixes = prefixes
        self.t0 = time.perf_counter_ns()
        self.flushed_at = self.t0
        self.budget = values.Budget(
            int(opts.get("inline_limit", values.INLINE_LIMIT)),
            int(opts.get("values_per_tensor", 0)),
            int(opts.get("values_budget", 0)),
        )
        self.max_events: int | None = opts.get("max_events")
        self.count = 0
        self.lock = threading.RLock()  # the backward may run on another thread (devices)
        self.buf: list[Event] = []  # the events added and not sent, oldest first
        self.added = 0  # events added so far (the last of `buf` is number added - 1)
        self.since = 0  # events added since the last batch's end
        self.last_site = 0  # id of the user frame that made the newest event (0: none)
        self.run_from = 0  # number of the first of the newest events made by that frame
        self.end_from = 0  # number of the first event not sent at the last batch's end
        self.frames: dict[int, FrameType] = {}  # user frames seen since the last flush
        self.unnamed: list[tuple[TensorInfo, torch.Tensor]] = []
        self.tensor_ids: WeakIdKeyDictionary = WeakIdKeyDictionary()
        self.next_tensor = 0
        self.grad_owner: WeakIdKeyDictionary = WeakIdKeyDictionary()  # a .grad -> its leaf
        self.zeroing = False  # inside zero_grad (its writes are reported as `zeroed`)
        self.described: set[int] = set()
        # nodes cannot be weakly referenced: they are held (and so is their graph) for the run
        self.node_ids: dict[int, tuple[Any, int]] = {}
        self.nodes: list[Any] = []  # by id
        self.node_lines: dict[int, int | None] = {}
        self.node_saved: dict[int, bool] = {}
        self.pnames: dict[int, tuple[torch.Tensor, str]] = {}  # parameter -> name
        self.indexed: dict[int, Any] = {}  # modules whose parameters are named
        self.busy = 0  # >0 while the recorder itself runs torch code
        # events held back while a node's tensor hooks run before its entry is reported
        self.divert: list[tuple[Event, FrameType | None]] | None = None
        # (tensor, packed) for each pack hook of the user's saved_tensors_hooks during an op
        self.packing: list[tuple[torch.Tensor, Any]] = []
        self.packed_names: dict[int, tuple[int, str, Any]] = {}  # id(packed) -> node, name
        self.on_node: Callable[[Any, int], None] = lambda node, nid: None
        self.stopped = False
        self.failures: set[str] = set()

    def now(self) -> int:
        return time.perf_counter_ns() - self.t0

    # -- the user's frames ------------------------------------------------------------------
    def is_user(self, filename: str) -> bool:
        return filename in self.files or (
            bool(self.prefixes) and filename.startswith(self.prefixes)
        )

    def site(self, depth: int = 2) -> tuple[int | None, FrameType | None]:
        """The innermost user frame calling in, and its line."""
        f: FrameType | None = sys._getframe(depth)
        while f is not None and not self.is_user(f.f_code.co_filename):
            f = f.f_back
        if f is None:
            return None, None
        self.frames[id(f)] = f
        return f.f_lineno, f

    @contextmanager
    def quiet(self) -> Iterator[None]:
        """Run the recorder's own torch code unseen by the function mode."""
        self.busy += 1
        try:
            with torch._C.DisableTorchFunction():
                yield
        finally:
            self.busy -= 1

    # -- ids --------------------------------------------------------------------------------
    def tensor_known(self, t: torch.Tensor) -> int | None:
        tid: int | None = self.tensor_ids.get(t)
        return tid if tid is not None and tid in self.described else None

    def tensor_id(
        self,
        t: Any,
        line: int | None = None,
        frame: FrameType | None = None,
        mode: GradMode | None = None,
        backward: int | None = None,
    ) -> int | None:
        """The id of a tensor, emitting its `tensor` event first when it has none yet."""
        if not isinstance(t, torch.Tensor):
            return None
        tid = self.tensor_known(t)
        if tid is None:
            info = self.tensor_info(t, line, frame, mode, backward)
            self.add({"type": "tensor", "t": self.now(), "tensor": info}, frame)
            tid = info["id"]
        return tid

    def tensor_info(
        self,
        t: torch.Tensor,
        line: int | None,
        frame: FrameType | None = None,
        mode: GradMode | None = None,
        backward: int | None = None,
    ) -> TensorInfo:
        tid = self.tensor_ids.get(t)
        if tid is None:
            tid = self.tensor_ids[t] = self.next_tensor
            self.next_tensor += 1
        self.described.add(tid)
        fn = t.grad_fn
        if mode is None and fn is not None:
            mode = "grad"
        elif mode is None and t.is_inference():
            mode = "inference_mode"
        v = self.value(t)
        info: TensorInfo = {
            "id": tid,
            "shape": v["shape"],
            "dtype": v["dtype"],
            "requires_grad": t.requires_grad,
            "is_leaf": t.is_leaf,
            "version": version_of(t),
            "grad_fn": self.node_id(fn) if fn is not None else None,
            "output_nr": t.output_nr,
            "name": None,
            "line": line,
            "grad_mode": mode,
            "backward": backward,
            "value": v,
        }
        self.unnamed.append((info, t))
        return info

    def node_known(self, node: Any) -> int | None:
        hit = self.node_ids.get(id(node))
        return hit[1] if hit is not None and hit[0] is node else None

    def node_object(self, nid: int) -> Any:
        return self.nodes[nid] if 0 <= nid < len(self.nodes) else None

    def take_packed(self) -> list[tuple[torch.Tensor, Any]]:
        out, self.packing = self.packing, []
        return out

    def node_id(self, node: Any, **made: Any) -> int | None:
        """The id of a node, emitting events for it and the unseen nodes below it first.
        `made`: what is known of the op that made it (line, frame, inputs, outputs, mode,
        module_path, module_calls, backward)."""
        if node is None:
            return None
        nid = self.node_known(node)
        if nid is not None:
            return nid
        stack: list[tuple[Any, bool]] = [(node, False)]
        while stack:
            n, ready = stack.pop()
            if self.node_known(n) is not None:
                continue
            if not ready:
                stack.append((n, True))
                # (reversed: the first edge's nodes are described first, as the engine does)
                stack.extend((m, False) for m, _ in reversed(n.next_functions) if m is not None)
                continue
            below = {"line": made.get("line"), "backward": made.get("backward")}
            self._node_event(n, made if n is node else below)
        return self.node_known(node)

    def _node_event(self, node: Any, made: dict[str, Any]) -> None:
        nid = len(self.nodes)
        self.node_ids[id(node)] = (node, nid)
        self.nodes.append(node)
        line, frame = made.get("line"), made.get("frame")
        nexts: list[EdgeRef] = [
            {"node": self.node_id(m) if m is not None else None, "input_nr": nr}
            for m, nr in node.next_functions
        ]
        var = getattr(node, "variable", None) if node.name() == ACCUMULATE else None
        variable = self.tensor_id(var, None) if isinstance(var, torch.Tensor) else None
        bw = made.get("backward")
        ins = [self.tensor_id(t, line, frame) for t in made.get("inputs", ())]
        outs = [
            self.tensor_info(o, line, frame, made.get("mode"), bw)
            for o in made.get("outputs", ())
            if self.tensor_known(o) is None
        ]
        saved, late = saved_values(self, node, nid, made.get("packed") or [])
        self.node_lines[nid] = line if variable is None else None
        self.node_saved[nid] = bool(saved)
        calls = made.get("module_calls")
        self.add(
            {
                "type": "node",
                "t": self.now(),
                "id": nid,
                "name": node.name(),
                "next": nexts,
                "inputs": ins,
                "outputs": outs,
                "saved": saved,
                "line": line if variable is None else None,
                "grad_mode": made.get("mode") or "grad",
                "module_path": made.get("module_path"),
                "module_calls": list(calls) if calls else None,
                "variable": variable,
                "backward": bw,
            },
            frame,
        )
        for e in late:
            self.add(e)
        self.on_node(node, nid)

    def grad_changed(
        self,
        t: torch.Tensor,
        how: GradChangedHow,
        line: int | None,
        frame: FrameType | None = None,
        hook: int | None = None,
    ) -> None:
        """`t.grad` changed outside backward's accumulation (assigned, zero_grad, a
        post-accumulate hook, written in place)."""
        g = t.grad
        self.own_grad(t)
        event: Event = {
            "type": "grad_changed",
            "t": self.now(),
            "tensor": self.tensor_id(t, line, frame),
            "how": how,
            "value": self.value(g) if g is not None else None,
            "line": line,
        }
        if hook is not None:
            event["hook"] = hook
        self.add(event, frame)

    def own_grad(self, leaf: torch.Tensor) -> None:
        """Remember whose `.grad` this leaf's grad tensor is (a write into it changes it)."""
        g = leaf.grad
        if g is not None:
            self.grad_owner[g] = leaf

    def grad_owned(self, t: torch.Tensor) -> torch.Tensor | None:
        """The leaf whose `.grad` `t` is now, if one is known."""
        leaf: torch.Tensor | None = self.grad_owner.get(t)
        return leaf if leaf is not None and leaf.grad is t else None

    def internal_error(self, what: str, e: Exception) -> None:
        """backscope failed to record something: say so once per kind, and go on."""
        key = f"{what}:{type(e).__name__}"
        if key in self.failures:
            return
        self.failures.add(key)
        text = f"backscope: could not record {what!r} ({type(e).__name__}: {e}); the run goes on\n"
        self.add({"type": "stderr", "t": self.now(), "text": text})

    # -- values -----------------------------------------------------------------------------
    def value(self, t: torch.Tensor) -> TensorValue:
        with self.quiet():
            return values.value(t, self.budget)

    def grads(self, gs: Any) -> list[TensorValue | None]:
        return [self.value(g) if isinstance(g, torch.Tensor) else None for g in gs]

    # -- the buffer ---------------------------------------------------------------------------
    def add(self, event: Event, frame: FrameType | None = None) -> None:
        if self.divert is not None:
            self.divert.append((event, frame))
            return
        with self.lock:
            site = id(frame) if frame is not None else 0
            if not site or site != self.last_site:
                self.run_from = self.added
            self.last_site = site
            self.buf.append(event)
            self.added += 1
            self.since += 1
            if self.since >= BATCH:
                self.flush(keep_last=True)
            elif time.perf_counter_ns() - self.flushed_at > FLUSH_EVERY_NS:
                self.send_built()

    def emit(self, event: Event) -> None:
        """An event built elsewhere (stdout, errors, pauses), in stream order."""
        self.add(event)

    def flush(self, keep_last: bool = False) -> None:
        """A batch's end (a moment the program fixes): name what can be named and hand the
        buffered events to the sink. `keep_last`: the events the newest statement's frame made
        since the last end wait (its result is not bound to a name yet); all are sent when
        that frame made every event since (a script's top level)."""
        with self.lock:
            buf = self.buf
            first = self.added - len(buf)  # the number of buf[0]
            cut = len(buf)
            if keep_last and buf and self.last_site and self.run_from > self.end_from:
                cut = max(0, self.run_from - first)
            self.since = 0
            self.end_from = self.added - (len(buf) - cut)
            self._name(keep=buf[cut:])
            self._send(cut)

    def send_built(self) -> None:
        """A timed send (FLUSH_EVERY_NS has passed: a moment the machine's speed fixes): send
        the events whose names are settled, those before the first one a batch's end has still
        to name, never the newest (a printed line's text may still grow). No name is read."""
        with self.lock:
            waiting = {id(info) for info, _ in self.unnamed}
            buf = self.buf
            cut = 0
            while cut < len(buf) - 1 and not any(id(i) in waiting for i in _infos(buf[cut])):
                cut += 1
            self._send(cut)

    def _send(self, cut: int) -> None:
        """Hand the first `cut` buffered events to the sink."""
        self.flushed_at = time.perf_counter_ns()
        out, self.buf = self.buf[:cut], self.buf[cut:]
        if not out:
            return
        if self.max_events is not None and self.count + len(out) > self.max_events:
            out = out[: max(0, self.max_events - self.count)]
            self.count += len(out)
            if out:
                self.sink(out)
            raise EventLimit(f"event limit of {self.max_events} reached")
        self.count += len(out)
        self.sink(out)

    def _name(self, keep: list[Event]) -> None:
        names: dict[int, str] = {}
        for f in self.frames.values():
            for k, v in list(f.f_locals.items()):
                if isinstance(v, torch.Tensor) and not k.startswith("__"):
                    names.setdefault(id(v), k)
                elif isinstance(v, torch.nn.Module) and id(v) not in self.indexed:
                    self.index_parameters(v)
        for pid, (_, pname) in self.pnames.items():
            names.setdefault(pid, pname)
        held = {id(info) for e in keep for info in _infos(e)}
        rest = []
        for info, t in self.unnamed:
            info["name"] = names.get(id(t))
            if info["name"] is None and id(info) in held:
                rest.append((info, t))
        self.unnamed = rest
        self.frames = {}

    def index_parameters(self, module: torch.nn.Module) -> None:
        """Name a module's parameters as its `named_parameters()` does (once per module)."""
        if id(module) in self.indexed:
            return
        self.indexed[id(module)] = module
        try:
            named = list(module.named_parameters())
        except Exception:  # a user's override may fail: names are a courtesy
            return
        for name, p in named:
            self.pnames.setdefault(id(p), (p, name))


def _infos(event: Event) -> list[Any]:
    """The tensor descriptions an event carries."""
    if event["type"] == "tensor":
        return [event["tensor"]]
    return list(event.get("outputs") or ())
