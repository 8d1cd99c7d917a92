"""`backscope trace`: run a snippet under the tracer and write events as JSON Lines.

`write_trace` is the one writer of a traced run's file, whichever engine runs the code: the
engine's tracer here, real torch in `backscope trace --torch` (backscope/cli.py)."""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Callable
from typing import IO, Any

import orjson

from protocol import PROTOCOL_VERSION, RunFinished, RunOptions, RunStarted

Sink = Callable[[list[dict[str, Any]]], None]
# (sink, options) -> the run's summary: {status, duration_ns, ...}
Producer = Callable[[Sink, dict[str, Any]], dict[str, Any]]


class _Writer:
    """Numbers events (`run_id`, dense `seq`) and writes one JSON object per line."""

    def __init__(self, out: IO[bytes], run_id: str) -> None:
        self.out = out
        self.run_id = run_id
        self.seq = 0

    def write(self, events: list[dict[str, Any]]) -> None:
        lines = []
        for e in events:
            e["run_id"] = self.run_id
            e["seq"] = self.seq
            self.seq += 1
            lines.append(orjson.dumps(e))
        if lines:
            self.out.write(b"\n".join(lines) + b"\n")


def write_trace(
    output: str,
    code: str,
    produce: Producer,
    *,
    pause_backward: bool = False,
    max_events: int | None = None,
    engine: str | None = None,
) -> int:
    """Write to `output` ("-": stdout) `run_started`, what `produce` sends, then `run_finished`,
    numbered as one run of at most `max_events` events; exit status 1 on a snippet error.
    `engine` names what runs the code (absent: backscope's engine)."""
    opts: RunOptions = {"pause_in_backward": pause_backward, "max_events": max_events}
    out: IO[bytes] = sys.stdout.buffer if output == "-" else open(output, "wb")  # noqa: SIM115
    try:
        w = _Writer(out, uuid.uuid4().hex[:12])
        start = time.perf_counter_ns()
        started: RunStarted = {
            "type": "run_started",
            "t": 0,
            "version": PROTOCOL_VERSION,
            "code": code,
            "options": opts,
        }
        if engine is not None:
            started["engine"] = engine
        w.write([dict(started)])
        # (the run's own events leave room for run_started and run_finished)
        inner = None if max_events is None else max(0, max_events - 2)
        summary = produce(w.write, {**opts, "max_events": inner})
        # the producer's clock starts a little after ours: keep `t` non-decreasing
        finished: RunFinished = {
            "type": "run_finished",
            "t": time.perf_counter_ns() - start,
            "status": summary["status"],
            "events": w.seq + 1,
            "duration_ns": summary["duration_ns"],
        }
        w.write([dict(finished)])
    finally:
        if out is not sys.stdout.buffer:
            out.close()
        else:
            out.flush()
    return 1 if summary["status"] == "error" else 0


def trace_command(
    file: str, output: str, pause_backward: bool = False, max_events: int | None = None
) -> int:
    """Run `file` (or stdin for "-") on the engine, write its events; exit status 1 on a
    snippet error."""
    from engine.tracing import AutoStep, run_snippet

    if file == "-":
        code, filename = sys.stdin.read(), "<snippet>"
    else:
        with open(file, encoding="utf-8") as f:
            code = f.read()
        filename = file

    def produce(sink: Sink, options: dict[str, Any]) -> dict[str, Any]:
        controller = AutoStep() if pause_backward else None
        return run_snippet(code, sink, controller=controller, options=options, filename=filename)

    return write_trace(output, code, produce, pause_backward=pause_backward, max_events=max_events)
