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
from typing import TYPE_CHECKING, Any

import numpy as np

from engine._tensor import Tensor
from engine.autograd.graph import Node
from engine.tracing import build

if TYPE_CHECKING:
    from engine.tracing.tracer import Tracer

_ns = time.perf_counter_ns
_first = operator.itemgetter(0)
_zeros = itertools.repeat(0)
MAX_VALUES = 1_000_000


class RunStopped(BaseException):
    """A `stop` command ended the run (not an error in the snippet)."""


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


class AutoStep:
    """A controller that answers every pause with `step` (records a stepped run unattended)."""

    def wait(self) -> dict[str, Any]:
        return {"type": "step"}

    def poll(self) -> dict[str, Any] | None:
        return None


def _has_nan(gs: list[Any]) -> bool:
    for g in gs:
        if isinstance(g, Tensor) and g._d.dtype.kind == "f" and np.isnan(g._d).any():
            return True
    return False


class Backward:
    """Traces backward passes and runs the stepper."""

    def __init__(self, tracer: Tracer, controller: Any, options: dict[str, Any]) -> None:
        self.tr = tracer
        self.ctl = controller
        self.stepping = bool(options.get("pause_in_backward"))
        self.breakpoints: list[dict[str, Any]] = list(options.get("breakpoints") or [])
        self.bid = -1
        self.current: Node | None = None
        self.failed: Node | None = None

    def drive(self, steps: Any) -> None:
        """Run a walk to its end, recording every step (the engine's `drive` with a tracer)."""
        tr = self.tr
        loc = steps.gi_frame.f_locals  # the walker's arguments, before it starts
        task = loc["task"]
        self.bid += 1
        bid = self.bid
        line, frame = tr._site()
        inputs = [t for t, _ in _captured(task)]
        tr.buf.append(
            (
                "bw_start",
                _ns(),
                line,
                frame,
                bid,
                list(loc["roots"]),
                list(loc["grads"]),
                task.keep_graph,
                task.create_graph,
                inputs,
            )
        )
        tr.flush()
        watch = self.ctl is not None or self.breakpoints or self.stepping
        add = tr._add
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
                    add(
                        (
                            "enter",
                            _ns(),
                            None,
                            None,
                            bid,
                            node,
                            list(live),
                            list(step[3]),
                            tuple(map(task.deps.get, map(_first, node.next_functions), _zeros)),
                        )
                    )
                    if watch:
                        self._check(node, live)
                    continue
                n += 1
                add(
                    ("exit", _ns(), None, None, bid, node, list(step[2]), had_saved and node._freed)
                )
        except BaseException:
            self.failed = self.current  # the error event names the node that raised
            raise
        finally:
            self.current = None
        add(("bw_finish", _ns(), None, None, bid, n))
        if not task.captures:
            tr.flush()
        # else autograd.grad (or backward(inputs=...)): its results are about to be bound to the
        # user's names, which the next flush reads (pauses and in-place writes flush anyway)

    # -- the stepper ---------------------------------------------------------------------
    def _check(self, node: Node, grads: list[Any]) -> None:
        why = None
        if self.ctl is not None:
            cmd = self.ctl.poll()
            while cmd is not None:
                if cmd.get("type") == "pause":
                    why = "pause"
                else:
                    self._command(cmd)
                cmd = self.ctl.poll()
        if why is None:
            why = "step" if self.stepping else self._breakpoint(node, grads)
        if why is not None:
            self._pause(node, why)

    def _breakpoint(self, node: Node, grads: list[Any]) -> str | None:
        nid = self.tr.nodes.get(node)
        for bp in self.breakpoints:
            if bp.get("node_id") is not None and bp["node_id"] == nid:
                return "breakpoint"
            if bp.get("op") and bp["op"] == node.name():
                return "breakpoint"
            line = self.tr.node_lines.get(nid) if nid is not None else None
            if bp.get("line") is not None and bp["line"] == line:
                return "breakpoint"
            if bp.get("on_nan") and _has_nan(grads):
                return "nan"
        return None

    def _pause(self, node: Node | None, why: str) -> None:
        tr = self.tr
        if self.ctl is None:
            return
        tr.flush()
        nid = tr.nodes.get(node) if node is not None else None
        where = "before_node" if node is not None else "end"
        backward = self.bid if node is not None else None
        tr.emit("paused", node=nid, backward=backward, where=where, why=why)
        tr.flush()
        while True:
            cmd = self.ctl.wait()
            kind = cmd.get("type")
            if kind == "step":
                self.stepping = True
                return
            if kind == "continue":
                self.stepping = False
                return
            self._command(cmd)
            tr.flush()

    def _command(self, cmd: dict[str, Any]) -> None:
        kind = cmd.get("type")
        if kind == "stop":
            raise RunStopped("stopped")
        if kind == "set_breakpoints":
            self.breakpoints = list(cmd.get("breakpoints") or [])
        elif kind == "tensor_values":
            self.tr.emit("tensor_values", **tensor_values(self.tr, cmd.get("tensor_id")))

    def linger(self) -> None:
        """After the snippet: answer `tensor_values` until any other command arrives."""
        if self.ctl is None:
            return
        self.tr.emit("paused", node=None, backward=None, where="end", why="finished")
        self.tr.flush()
        while True:
            cmd = self.ctl.wait()
            if cmd.get("type") != "tensor_values":
                return
            self.tr.emit("tensor_values", **tensor_values(self.tr, cmd.get("tensor_id")))
            self.tr.flush()


def _captured(task: Any) -> list[tuple[Any, int]]:
    # backward(inputs=...) / grad(inputs): the leaves whose AccumulateGrad is captured
    out = []
    for node, caps in task.captures.items():
        var = getattr(node, "variable", None)
        for _, slot in caps:
            out.append((var, slot))
    out.sort(key=lambda p: p[1])
    return out


def tensor_values(tr: Tracer, tid: Any) -> dict[str, Any]:
    """The full values of a retained (or still live) tensor, bounded in size."""
    a = tr.retained.get(tid) if isinstance(tid, int) else None
    if a is None and isinstance(tid, int):
        t = tr.tensors.find(tid, Tensor)
        a = t._d if t is not None else None
    if a is None:
        return {"tensor_id": tid, "error": "tensor values are no longer available"}
    if a.size > MAX_VALUES:
        return {"tensor_id": tid, "error": f"tensor has {a.size} elements (limit {MAX_VALUES})"}
    from engine.tracing.values import dtype_name, plain

    return {
        "tensor_id": tid,
        "shape": list(a.shape),
        "dtype": dtype_name(a.dtype),
        "values": plain(a),
    }


# -- batch side ----------------------------------------------------------------------------
def _b_start(tr: Tracer, it: tuple[Any, ...], out: list[Any]) -> None:
    ts = it[1]
    roots = [{"node": build.node_id(tr, n, ts, out), "input_nr": nr} for n, nr in it[5]]
    ins = [build.tensor_id(tr, t, ts, it[2], out) for t in it[9]]
    out.append(
        tr.event(
            "backward_started",
            ts,
            backward=it[4],
            roots=roots,
            grad_tensors=build.grads(tr, it[6]),
            retain_graph=it[7],
            create_graph=it[8],
            inputs=ins,
            line=it[2],
        )
    )


def _b_enter(tr: Tracer, it: tuple[Any, ...], out: list[Any]) -> None:
    ts = it[1]
    node = it[5]
    # node ids read inline (Ids.get), one attribute each: the hottest builder with _b_exit
    lo, hi = tr.nodes.lo, tr.nodes.hi
    v = node._tr_id
    nid = v - lo if lo <= v < hi else build.node_id(tr, node, ts, out)
    q = []
    for e in it[7]:
        v = e[2]._tr_id
        q.append(v - lo if lo <= v < hi else build.node_id(tr, e[2], ts, out))
    deps = []
    for (n, _), c in zip(node.next_functions, it[8]):
        if n is not None:
            v = n._tr_id
            m = v - lo if lo <= v < hi else build.node_id(tr, n, ts, out)
            deps.append({"node": m, "count": c})
    out.append(
        {
            "type": "node_enter",
            "t": ts - tr.t0,
            "backward": it[4],
            "node": nid,
            "grad_outputs": build.grads(tr, it[6]),
            "queue": q,
            "deps": deps,
        }
    )


def _b_exit(tr: Tracer, it: tuple[Any, ...], out: list[Any]) -> None:
    v = it[5]._tr_id
    lo = tr.nodes.lo
    nid = v - lo if lo <= v < tr.nodes.hi else None
    t = it[1] - tr.t0
    out.append(
        {
            "type": "node_exit",
            "t": t,
            "backward": it[4],
            "node": nid,
            "grad_inputs": build.grads(tr, it[6]),
        }
    )
    if it[7]:
        out.append({"type": "buffers_freed", "t": t, "backward": it[4], "node": nid})


def _b_acc(tr: Tracer, it: tuple[Any, ...], out: list[Any]) -> None:
    total = build.grads(tr, [it[8]])[0]
    out.append(
        tr.event(
            "grad_accumulated",
            it[1],
            backward=it[4],
            node=tr.nodes.get(it[5]),
            tensor=build.tensor_id(tr, it[6], it[1], None, out),
            grad=build.grads(tr, [it[7]])[0],
            total=total,
        )
    )


def _b_finish(tr: Tracer, it: tuple[Any, ...], out: list[Any]) -> None:
    out.append(tr.event("backward_finished", it[1], backward=it[4], nodes_run=it[5]))


build.BUILDERS.update(
    {
        "bw_start": _b_start,
        "enter": _b_enter,
        "exit": _b_exit,
        "acc": _b_acc,
        "bw_finish": _b_finish,
    }
)
