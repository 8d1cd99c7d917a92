"""Tracing: the engine observer that turns a run into events, and the backward stepper.

`run_snippet(code, sink, *, controller=None, options=None, filename="<snippet>")` runs `code`
with `import torch` meaning the engine and hands event dicts (the TypedDicts of the `protocol`
package; `t` = ns since the run started) to `sink` in batches. It sets neither `run_id` nor
`seq` and emits no run_started/run_finished: the caller does. Returns
`{"status": "ok"|"error"|"stopped"|"limit", "events": n, "duration_ns": ..., "error"?: ...}`.

Options: `pause_in_backward`, `breakpoints` (dicts with `node_id`/`op`/`line`/`on_nan`),
`max_events`, `inline_limit` (elements shown inline, default 64), `batch` (events per sink
call), `retain`/`retain_bytes` (large tensors kept for `tensor_values`), `linger` (after the
snippet, answer `tensor_values` until another command arrives), `halt_signal` (the signal
that asks the run to halt: it sends what it has and a `halted` event naming its line), and
the value budgets `values_per_tensor`/`values_budget`/`values_request_cap`/
`values_answer_budget` (set by the server; see `Tracer`).

A controller has `wait() -> dict` (blocking) and `poll() -> dict | None`, returning command
dicts (`step`, `continue`, `pause`, `stop`, `set_breakpoints`, `tensor_values`);
`QueueController` is the in-process one, `AutoStep` steps unattended.

>>> events = []
>>> run_snippet("import torch\\nx = torch.ones(2, requires_grad=True)\\n(x * 2).sum().backward()",
...             events.extend)["status"]
'ok'
"""

from __future__ import annotations

from engine.tracing.halting import EventLimit, RunHalted, RunStopped
from engine.tracing.run import run_snippet
from engine.tracing.stepper import AutoStep, QueueController
from engine.tracing.tracer import Tracer

__all__ = [
    "AutoStep",
    "EventLimit",
    "QueueController",
    "RunHalted",
    "RunStopped",
    "Tracer",
    "run_snippet",
]
