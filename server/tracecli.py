"""`backscope trace`: run a snippet under the tracer and write events as JSON Lines."""

from __future__ import annotations

import sys
import time
import uuid
from typing import IO, Any

import orjson

from protocol import PROTOCOL_VERSION, RunFinished, RunOptions, RunStarted


class _Writer:
    """Numbers events (`run_id`, dense `seq`) and writes one JSON object per line."""

    def __init__(self, out: IO[bytes], run_id: str, max_events: int | None) -> None:
        self.out = out
        self.run_id = run_id
        self.seq = 0
        self.max_events = max_events

    def write(self, events: list[dict[str, Any]]) -> None:
        lines = []
        for e in events:
            e["run_id"] = self.run_id
            e["seq"] = self.seq
            self.seq += 1
            lines.append(orjson.dumps(e))
        if lines:
            self.out.write(b"\n".join(lines) + b"\n")


def trace_command(
    file: str, output: str, pause_backward: bool = False, max_events: int | None = None
) -> int:
    """Run `file` (or stdin for "-"), write its events; exit status 1 on a snippet error."""
    from engine.tracing import AutoStep, run_snippet

    if file == "-":
        code, filename = sys.stdin.read(), "<snippet>"
    else:
        with open(file, encoding="utf-8") as f:
            code = f.read()
        filename = file
    opts: RunOptions = {"pause_in_backward": pause_backward, "max_events": max_events}
    out: IO[bytes] = sys.stdout.buffer if output == "-" else open(output, "wb")  # noqa: SIM115
    try:
        w = _Writer(out, uuid.uuid4().hex[:12], max_events)
        start = time.perf_counter_ns()
        started: RunStarted = {
            "type": "run_started",
            "t": 0,
            "version": PROTOCOL_VERSION,
            "code": code,
            "options": opts,
        }
        w.write([dict(started)])
        inner = None if max_events is None else max(0, max_events - 2)
        summary = run_snippet(
            code,
            w.write,
            controller=AutoStep() if pause_backward else None,
            options={**opts, "max_events": inner},
            filename=filename,
        )
        # run_snippet's clock starts a little after ours: keep `t` non-decreasing
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
