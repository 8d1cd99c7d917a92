"""`backscope trace --torch FILE.py` and `backscope run --torch FILE.py` (server/cli.py parses the
command line and calls these): FILE runs with real PyTorch in this process."""

from __future__ import annotations

import sys
import time
import uuid
import webbrowser
from typing import IO, Any

from protocol import PROTOCOL_VERSION, RunFinished, RunOptions, RunStarted


class AutoStep:
    """A controller that answers every pause with `step` (a stepped run, unattended)."""

    def wait(self) -> dict[str, Any]:
        return {"type": "step"}

    def poll(self) -> dict[str, Any] | None:
        return None


def trace_torch(
    file: str, output: str, pause_backward: bool = False, max_events: int | None = None
) -> int:
    """Run `file` with real torch, write its events as JSON Lines (exit 1 on an error)."""
    from backscope.capture import run_file
    from backscope.live import engine_name
    from server.tracecli import _Writer

    with open(file, encoding="utf-8") as f:
        code = f.read()
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
            "engine": engine_name(),
        }
        w.write([dict(started)])
        inner = None if max_events is None else max(0, max_events - 2)
        summary = run_file(
            file,
            w.write,
            controller=AutoStep() if pause_backward else None,
            options={**opts, "max_events": inner},
        )
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


def run_torch(
    file: str, host: str, port: int, open_page: bool, pause_backward: bool = False
) -> int:
    """Run `file` with real torch here, live in the page; keep serving until Ctrl+C."""
    from backscope.capture import run_file
    from backscope.live import engine_name, local_server

    with open(file, encoding="utf-8") as f:
        code = f.read()
    server = local_server(host, port)
    options: dict[str, Any] = {"pause_in_backward": pause_backward}
    run_id, handle = server.new_run(code, options, engine_name())
    url = server.url(run_id)
    print(f"backscope: {url}", file=sys.stderr, flush=True)
    if open_page:
        webbrowser.open(url)
    import threading

    handle.thread = threading.get_ident()
    status = "error"
    try:
        summary = run_file(file, handle.feed, controller=handle.commands, options=options)
        status = summary["status"]
    finally:
        handle.finish(status)
    print(
        f"backscope: the run ended ({status}); the page stays at {url} until Ctrl+C",
        file=sys.stderr,
        flush=True,
    )
    try:
        server.thread.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 1 if status == "error" else 0
