"""`backscope trace --torch FILE.py` and `backscope run --torch FILE.py` (server/cli.py parses the
command line and calls these): FILE runs with real PyTorch in this process."""

from __future__ import annotations

import sys
import webbrowser
from typing import Any


def trace_torch(
    file: str, output: str, pause_backward: bool = False, max_events: int | None = None
) -> int:
    """Run `file` with real torch, write its events as JSON Lines (exit 1 on an error)."""
    from backscope.capture import run_file
    from backscope.live import engine_name
    from protocol.stepping import AutoStep
    from server.tracecli import Sink, write_trace

    with open(file, encoding="utf-8") as f:
        code = f.read()

    def produce(sink: Sink, options: dict[str, Any]) -> dict[str, Any]:
        controller = AutoStep() if pause_backward else None
        return run_file(file, sink, controller=controller, options=options)

    return write_trace(
        output,
        code,
        produce,
        pause_backward=pause_backward,
        max_events=max_events,
        engine=engine_name(),
    )


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
