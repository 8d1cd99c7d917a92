"""The stepper of a real-torch backward: pauses before a node (step mode, a breakpoint by node,
op name, line or NaN gradient) until the controller says step, continue or stop.

It blocks the thread running the backward inside backscope's node pre-hook, so it decides only
*when* PyTorch's engine goes on, never what it computes: a stepped backward gives exactly the
gradients of an uninterrupted one.
"""

from __future__ import annotations

from typing import Any, NoReturn

import torch

from backscope.capture.recorder import Recorder, RunStopped
from protocol import VALUES_CHUNK
from protocol.stepping import Stepping


def has_nan(gs: Any) -> bool:
    for g in gs or ():
        if isinstance(g, torch.Tensor) and g.is_floating_point() and bool(torch.isnan(g).any()):
            return True
    return False


class Stepper(Stepping):
    """When to pause is `protocol.stepping`'s (shared with the engine's tracer); this says what
    only the capture knows. A controller has `wait() -> dict` (blocking) and `poll() -> dict |
    None`, returning commands (`step`, `continue`, `pause`, `stop`, `set_breakpoints`,
    `tensor_values`). Nodes are named by their wire ids here."""

    def __init__(self, rec: Recorder, controller: Any, options: dict[str, Any]) -> None:
        super().__init__(rec, controller, options)
        self.rec = rec
        self.request_cap = int(options.get("values_request_cap", 1_000_000))
        self.answer_left = int(options.get("values_answer_budget", 2_000_000))

    def node_id(self, node: Any) -> int | None:
        return int(node) if node is not None else None

    def node_name(self, node: Any) -> str | None:
        obj = self.rec.node_object(node)
        return str(obj.name()) if obj is not None else None

    def node_line(self, nid: int | None) -> int | None:
        return self.rec.node_lines.get(nid) if nid is not None else None

    def has_nan(self, grads: Any) -> bool:
        with self.rec.quiet():
            return has_nan(grads)

    def answer(self, tensor_id: Any) -> list[Any]:
        return self.tensor_values(tensor_id)

    def stop(self, cmd: dict[str, Any]) -> NoReturn:
        self.rec.stopped = True
        raise RunStopped(str(cmd.get("type")))

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
