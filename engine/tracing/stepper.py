"""The traced backward: drives the engine's walker, records each step, and pauses before
nodes (step mode or breakpoints) until a controller says step/continue/stop.

Stepping only decides *when* the walker advances, never what it computes, so a stepped
backward gives exactly the gradients of an uninterrupted one.
"""

from __future__ import annotations

import itertools
import operator
import queue
import time
from typing import TYPE_CHECKING, Any, NoReturn

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Node
from engine.tracing import build
from engine.tracing import captures as cap
from engine.tracing.halting import RunHalted, RunStopped
from protocol import (
    VALUES_CHUNK,
    BackwardStarted,
    DepCount,
    EdgeRef,
    GradAccumulated,
    NodeEnter,
    NodeExit,
    TensorValues,
)
from protocol import BackwardFinished as BackwardFinishedEvent
from protocol.stepping import AutoStep, Stepping

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer

_ns = time.perf_counter_ns
_tn = tuple.__new__
_Entered, _Exited = cap.Entered, cap.Exited  # (once per backward step each: globals)
_first = operator.itemgetter(0)
_zeros = itertools.repeat(0)
__all__ = ["AutoStep", "Backward", "QueueController", "RunHalted", "RunStopped"]


class QueueController:
    """An in-process controller: commands are put on a queue by the other side."""

    def __init__(self) -> None:
        self.q: queue.Queue[dict[str, Any]] = queue.Queue()

    def put(self, cmd: dict[str, Any]) -> None:
        """Send a command to the run."""
        self.q.put(cmd)

    def wait(self) -> dict[str, Any]:
        """Block until a command arrives."""
        return self.q.get()

    def poll(self) -> dict[str, Any] | None:
        """A pending command, or None."""
        try:
            return self.q.get_nowait()
        except queue.Empty:
            return None


def _has_nan(gs: list[Any]) -> bool:
    for g in gs:
        if isinstance(g, Tensor) and g._d.dtype.kind == "f" and np.isnan(g._d).any():
            return True
    return False


class Backward(Stepping):
    """Traces backward passes and runs the stepper (`protocol.stepping`: when to pause)."""

    def __init__(self, tracer: Tracer, controller: Any, options: dict[str, Any]) -> None:
        super().__init__(tracer, controller, options)
        self.tr = tracer
        self.bid = -1
        self.current: Node | None = None
        self.failed: Node | None = None

    def drive(self, steps: Any) -> None:
        """Run a walk to its end, recording every step (the engine's `drive` with a tracer)."""
        tr = self.tr
        kind, task, roots, grads = next(steps)  # the walk's arguments, before it starts
        assert kind == "start"
        self.bid += 1
        bid = self.bid
        line, frame = tr._site()
        inputs = [t for t, _ in _captured(task)]
        started = cap.BackwardStarted(
            _ns(),
            line,
            frame,
            bid,
            list(roots),
            list(grads),
            task.keep_graph,
            task.create_graph,
            inputs,
        )
        tr.number(started)
        tr.buf.append(started)
        tr.flush()
        outer = tr.in_backward  # (a backward run inside another one's hook)
        tr.in_backward = bid
        watch = self.ctl is not None or self.breakpoints or self.stepping
        add = tr.add_step
        n = 0
        live: list[Any] = []
        had_saved = False
        try:
            for step in steps:
                node = step[1]
                if step[0] == "enter":
                    self.current = node
                    live = step[2]
                    had_saved = node._saved is not None
                    # C-level copies only: the queue's entries and the dependency counts of
                    # the node's next functions (None for a missing edge), read at build time
                    grads = list(live)
                    add(
                        _tn(
                            _Entered,
                            (
                                _ns(),
                                None,
                                None,
                                bid,
                                node,
                                grads,
                                list(step[3]),
                                tuple(map(task.deps.get, map(_first, node.next_functions), _zeros)),
                            ),
                        ),
                        grads,
                    )
                    if watch:
                        self.at_node(node, bid, live)
                    continue
                n += 1
                freed = had_saved and node._freed
                grads = list(step[2])
                add(_tn(_Exited, (_ns(), None, None, bid, node, grads, freed)), grads)
        except BaseException:
            self.failed = self.current  # the error event names the node that raised
            raise
        finally:
            self.current = None
            tr.in_backward = outer
        tr._add(cap.BackwardFinished(_ns(), None, None, bid, n))
        if not task.captures:
            tr.flush()
        # else autograd.grad (or backward(inputs=...)): its results are about to be bound to the
        # user's names, which the next flush reads (pauses and in-place writes flush anyway)

    # -- what the stepper asks of the engine's tracer -------------------------------------
    def node_id(self, node: Any) -> int | None:
        return self.tr.nodes.get(node)

    def node_name(self, node: Any) -> str | None:
        return str(node.name())

    def node_line(self, nid: int | None) -> int | None:
        return self.tr.node_lines.get(nid) if nid is not None else None

    def has_nan(self, grads: Any) -> bool:
        return _has_nan(grads)

    def answer(self, tensor_id: Any) -> list[Any]:
        return tensor_values(self.tr, tensor_id)

    def stop(self, cmd: dict[str, Any]) -> NoReturn:
        if cmd.get("type") == "halt":  # (the signal that came with it was missed: a handler)
            raise RunHalted(cmd.get("why") or "killed")
        raise RunStopped("stopped")


def _captured(task: Any) -> list[tuple[Any, int]]:
    # backward(inputs=...) / grad(inputs): the leaves whose AccumulateGrad is captured
    out = []
    for node, caps in task.captures.items():
        var = getattr(node, "variable", None)
        for _, slot in caps:
            out.append((var, slot))
    out.sort(key=lambda p: p[1])
    return out


def tensor_values(tr: Tracer, tid: Any) -> list[TensorValues]:
    """The full values of a retained (or still live) tensor, flat, in chunks of at most
    VALUES_CHUNK elements; an error instead past the per-request cap or the run's budget
    for answers (both set by the server), so no answer can end the run."""
    a = tr.retained.get(tid) if isinstance(tid, int) else None
    if a is None and isinstance(tid, int):
        t = tr.tensors.find(tid, Tensor)
        a = t._d if t is not None else None
    ident = tid if isinstance(tid, int) else None
    if a is None:
        return [_values_error(tr, ident, "tensor values are no longer available")]
    if a.size > tr.request_cap:
        why = f"tensor has {a.size} elements (the limit for one request is {tr.request_cap})"
        return [_values_error(tr, ident, why, a)]
    if a.size > tr.answer_left:
        why = "this run has sent as many tensor values as it may; see the summaries"
        return [_values_error(tr, ident, why, a)]
    tr.answer_left -= a.size
    from engine.tracing.values import dtype_name, plain

    flat = a.reshape(-1)
    shape, dtype, total = list(a.shape), dtype_name(a.dtype), int(a.size)
    out: list[TensorValues] = []
    for start in range(0, max(total, 1), VALUES_CHUNK):
        part = flat[start : start + VALUES_CHUNK]
        out.append(
            {
                "type": "tensor_values",
                "t": tr.now(),
                "tensor_id": ident,
                "shape": shape,
                "dtype": dtype,
                "offset": start,
                "total": total,
                "values": plain(part),
                "last": start + VALUES_CHUNK >= total,
            }
        )
    return out


def _values_error(tr: Tracer, tid: int | None, why: str, a: Any = None) -> TensorValues:
    from engine.tracing.values import dtype_name

    return {
        "type": "tensor_values",
        "t": tr.now(),
        "tensor_id": tid,
        "shape": list(a.shape) if a is not None else None,
        "dtype": dtype_name(a.dtype) if a is not None else None,
        "offset": 0,
        "total": int(a.size) if a is not None else 0,
        "last": True,
        "error": why,
    }


# -- batch side ----------------------------------------------------------------------------
def _b_start(tr: Tracer, it: cap.BackwardStarted, out: list[Any]) -> None:
    ts = it.ts
    roots: list[EdgeRef] = [
        {"node": build.node_id(tr, n, ts, out), "input_nr": nr} for n, nr in it.roots
    ]
    ins = [build.tensor_id(tr, t, ts, it.line, out) for t in it.inputs]
    event: BackwardStarted = {
        "type": "backward_started",
        "t": ts - tr.t0,
        "backward": it.backward,
        "roots": roots,
        "grad_tensors": build.grads(tr, it.grads),
        "retain_graph": it.retain_graph,
        "create_graph": it.create_graph,
        "inputs": ins,
        "line": it.line,
    }
    out.append(event)


def _b_enter(tr: Tracer, it: cap.Entered, out: list[Any]) -> None:
    ts = it.ts
    node = it.node
    # node ids read inline (Ids.get), one attribute each: the hottest builder with _b_exit
    lo, hi = tr.nodes.lo, tr.nodes.hi
    v = node._tr_id
    nid = v - lo if lo <= v < hi else build.node_id(tr, node, ts, out)
    q = []
    for e in it.queue:
        v = e[2]._tr_id
        q.append(v - lo if lo <= v < hi else build.node_id(tr, e[2], ts, out))
    deps: list[DepCount] = []
    for (n, _), c in zip(node.next_functions, it.deps):
        if n is not None:
            v = n._tr_id
            m = v - lo if lo <= v < hi else build.node_id(tr, n, ts, out)
            deps.append({"node": m, "count": c})
    event: NodeEnter = {
        "type": "node_enter",
        "t": ts - tr.t0,
        "backward": it.backward,
        "node": nid,
        "grad_outputs": build.grads(tr, it.grads),
        "queue": q,
        "deps": deps,
    }
    out.append(event)


def _b_exit(tr: Tracer, it: cap.Exited, out: list[Any]) -> None:
    v = it.node._tr_id
    lo = tr.nodes.lo
    nid = v - lo if lo <= v < tr.nodes.hi else None
    t = it.ts - tr.t0
    event: NodeExit = {
        "type": "node_exit",
        "t": t,
        "backward": it.backward,
        "node": nid,
        "grad_inputs": build.grads(tr, it.grads),
        "freed": it.freed,
    }
    out.append(event)


def _b_acc(tr: Tracer, it: cap.Accumulated, out: list[Any]) -> None:
    total = build.grads(tr, [it.total])[0]
    event: GradAccumulated = {
        "type": "grad_accumulated",
        "t": it.ts - tr.t0,
        "backward": it.backward,
        "node": tr.nodes.get(it.node) if it.node is not None else None,
        "tensor": build.tensor_id(tr, it.tensor, it.ts, None, out),
        "grad": build.grads(tr, [it.grad])[0],
        "total": total,
    }
    out.append(event)


def _b_finish(tr: Tracer, it: cap.BackwardFinished, out: list[Any]) -> None:
    event: BackwardFinishedEvent = {
        "type": "backward_finished",
        "t": it.ts - tr.t0,
        "backward": it.backward,
        "nodes_run": it.nodes_run,
    }
    out.append(event)


build.BUILDERS.update(
    {
        cap.BackwardStarted: _b_start,
        cap.Entered: _b_enter,
        cap.Exited: _b_exit,
        cap.Accumulated: _b_acc,
        cap.BackwardFinished: _b_finish,
    }
)
