"""The stepper of a real-torch backward: pauses before a node (step mode, a breakpoint by node,
op name, line or NaN gradient) until the controller says step, continue or stop.

It blocks the thread running the backward inside backscope's node pre-hook, so it decides only
*when* PyTorch's engine goes on, never what it computes: a stepped backward gives exactly the
gradients of an uninterrupted one.
"""

from __future__ import annotations

from typing import Any

import torch

from backscope.capture.recorder import Recorder, RunStopped
from protocol import VALUES_CHUNK, PauseWhy


def has_nan(gs: Any) -> bool:
    for g in gs or ():
        if isinstance(g, torch.Tensor) and g.is_floating_point() and bool(torch.isnan(g).any()):
            return True
    return False


class Stepper:
    """A controller has `wait() -> dict` (blocking) and `poll() -> dict | None`, returning
    commands (`step`, `continue`, `pause`, `stop`, `set_breakpoints`, `tensor_values`)."""

    def __init__(self, rec: Recorder, controller: Any, options: dict[str, Any]) -> None:
        self.rec = rec
        self.ctl = controller
        self.stepping = bool(options.get("pause_in_backward"))
        self.breakpoints: list[dict[str, Any]] = list(options.get("breakpoints") or [])
        self.request_cap = int(options.get("values_request_cap", 1_000_000))
        self.answer_left = int(options.get("values_answer_budget", 2_000_000))

    def at_node(self, nid: int, node: Any, grads: Any, bid: int) -> None:
        """Called as a node is entered: take pending commands, pause if asked to."""
        if self.ctl is None:
            return
        why: PauseWhy | None = None
        cmd = self.ctl.poll()
        while cmd is not None:
            if cmd.get("type") == "pause":
                why = "pause"
            else:
                self.command(cmd)
            cmd = self.ctl.poll()
        if why is None:
            why = "step" if self.stepping else self._breakpoint(nid, node, grads)
        if why is not None:
            self.pause(nid, bid, why)

    def _breakpoint(self, nid: int, node: Any, grads: Any) -> PauseWhy | None:
        line = self.rec.node_lines.get(nid)
        for bp in self.breakpoints:
            if bp.get("node_id") is not None and bp["node_id"] == nid:
                return "breakpoint"
            if bp.get("op") and node is not None and bp["op"] == node.name():
                return "breakpoint"
            if bp.get("line") is not None and bp["line"] == line:
                return "breakpoint"
            if bp.get("on_nan"):
                with self.rec.quiet():
                    if has_nan(grads):
                        return "nan"
        return None

    def pause(self, nid: int | None, bid: int | None, why: PauseWhy) -> None:
        rec = self.rec
        rec.flush()
        rec.emit(
            {
                "type": "paused",
                "t": rec.now(),
                "node": nid,
                "backward": bid,
                "where": "before_node" if nid is not None else "end",
                "why": why,
            }
        )
        rec.flush()
        while True:
            cmd = self.ctl.wait()
            kind = cmd.get("type")
            if kind == "step":
                self.stepping = True
                return
            if kind == "continue":
                self.stepping = False
                return
            self.command(cmd)
            rec.flush()

    def command(self, cmd: dict[str, Any]) -> None:
        kind = cmd.get("type")
        if kind in ("stop", "halt"):
            self.rec.stopped = True
            raise RunStopped(kind)
        if kind == "set_breakpoints":
            self.breakpoints = list(cmd.get("breakpoints") or [])
        elif kind == "tensor_values":
            for chunk in self.tensor_values(cmd.get("tensor_id")):
                self.rec.emit(chunk)
                self.rec.flush()

    def linger(self) -> None:
        """After the user's code: answer `tensor_values` until any other command comes."""
        if self.ctl is None:
            return
        rec = self.rec
        rec.emit(
            {
                "type": "paused",
                "t": rec.now(),
                "node": None,
                "backward": None,
                "where": "end",
                "why": "finished",
            }
        )
        rec.flush()
        while True:
            cmd = self.ctl.wait()
            if cmd.get("type") != "tensor_values":
                return
            self.command(cmd)

    def tensor_values(self, tid: Any) -> list[dict[str, Any]]:
        """A live tensor's full values, flat, in chunks (or one answer with an `error` and no
        `values`: gone, or past the caps)."""
        rec = self.rec
        t = None
        if isinstance(tid, int):
            for k, v in list(rec.tensor_ids.items()):
                if v == tid:
                    t = k
                    break
        ident = tid if isinstance(tid, int) else None
        base: dict[str, Any] = {
            "type": "tensor_values",
            "t": rec.now(),
            "tensor_id": ident,
            "shape": None,
            "dtype": None,
            "offset": 0,
            "total": 0,
            "last": True,
        }
        if t is None:
            return [{**base, "error": "tensor values are no longer available"}]
        from backscope.capture import values

        with rec.quiet():
            a = values.array(t)
        n = int(a.size)
        base.update(shape=list(a.shape), dtype=values.dtype_name(t), total=n)
        if n > self.request_cap:
            why = f"tensor has {n} elements (the limit for one request is {self.request_cap})"
            return [{**base, "error": why}]
        if n > self.answer_left:
            why = "this run has sent as many tensor values as it may; see the summaries"
            return [{**base, "error": why}]
        self.answer_left -= n
        flat = a.reshape(-1)
        return [
            {
                **base,
                "offset": start,
                "values": values.plain(flat[start : start + VALUES_CHUNK]),
                "last": start + VALUES_CHUNK >= n,
            }
            for start in range(0, max(n, 1), VALUES_CHUNK)
        ]
