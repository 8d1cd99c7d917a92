"""The `backscope` command: `backscope serve`, `backscope runner`, `backscope trace [--torch]
FILE.py`, `backscope run --torch FILE.py`."""

from __future__ import annotations

import argparse
import os
import sys
import webbrowser
from pathlib import Path
from typing import Any

# How every server of the app speaks websocket (also the bench's and the tests' servers):
# the sans-I/O protocol (the legacy one is deprecated), and no permessage-deflate. Browsers and
# the Python client offer it and uvicorn accepts by default, but events are small JSON sent
# mostly over loopback or a LAN (the app is local-first): zlib cost the server more CPU than
# everything else per event, and uncompressed frames are what the throughput target measures.
# A SIGTERM waits at most `timeout_graceful_shutdown` for connections to end: a client that
# holds its socket open without reading would otherwise keep the server from ever reaching the
# shutdown that ends and stores in-flight runs.
# uvicorn's own proxy-header rewriting is off: it believes X-Forwarded-For from 127.0.0.1 by
# default, and the server's guard decides whom to believe (BACKSCOPE_TRUSTED_PROXIES).
UVICORN_WS: dict[str, Any] = {
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "timeout_graceful_shutdown": 5,
    "proxy_headers": False,
    # what one connection may make the server hold of frames it has not handled yet: a
    # command is at most 2 MiB (Settings.max_message_bytes), and they are handled in turn
    "ws_max_size": 4 * 1024 * 1024,
    "ws_max_queue": 4,
    # closes connections that never finish a request head, and caps open connections per
    # address and in all (a half-sent request must not hold a file descriptor for ever)
    "http": "server.trust.connections:GuardedHttpProtocol",
}


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import create_app
    from server.settings import Settings
    from server.storage import StoreUnavailable

    settings = Settings()
    settings.bind_host = args.host  # a name the Host header may carry
    if args.db:
        settings.db_path = Path(args.db)
        settings.database_url = None
    try:
        app = create_app(settings)
    except StoreUnavailable as exc:  # a person reads this: the reason, not a traceback
        print(f"backscope: {exc}", file=sys.stderr)
        return 2
    if args.open:
        webbrowser.open(f"http://{args.host}:{args.port}/")
    uvicorn.run(app, host=args.host, port=args.port, log_level="info", **UVICORN_WS)
    return 0


def _runner(args: argparse.Namespace) -> int:
    """Run queued runs from the PostgreSQL queue until SIGTERM (server/cluster/runner.py)."""
    import asyncio
    import logging
    import signal

    from server.cluster import serve_runner
    from server.settings import Settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await serve_runner(Settings(), args.slots, stop)

    asyncio.run(main())
    return 0


def _trace(args: argparse.Namespace) -> int:
    try:
        if args.torch:  # real PyTorch in this process (backscope[torch]), not the engine
            from backscope.cli import trace_torch

            return trace_torch(args.file, args.output, args.pause_backward, args.max_events)
        from server.tracecli import trace_command

        return trace_command(args.file, args.output, args.pause_backward, args.max_events)
    except BrokenPipeError:
        # `backscope trace f.py | head`: the reader left, as Unix tools end quietly. Standard
        # output goes to /dev/null so that the interpreter's last flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 1


def _run(args: argparse.Namespace) -> int:
    from backscope.cli import run_torch

    return run_torch(args.file, args.host, args.port, args.open, args.pause_backward)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `backscope` console script."""
    parser = argparse.ArgumentParser(prog="backscope", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="start the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="SQLite file for stored runs (default: user data dir)")
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.set_defaults(func=_serve)
    runner = sub.add_parser(
        "runner", help="run queued runs from the shared PostgreSQL queue (a runner service)"
    )
    runner.add_argument(
        "--slots", type=int, default=None, help="runs at once (default: sandbox max_workers)"
    )
    runner.set_defaults(func=_runner)
    trace = sub.add_parser("trace", help="run a snippet and write its events as JSON Lines")
    trace.add_argument("file", help="the snippet (a .py file, or - for stdin)")
    trace.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    trace.add_argument(
        "--pause-backward", action="store_true", help="step backward node by node (auto-step)"
    )
    trace.add_argument("--max-events", type=int, default=None, help="stop after N events")
    trace.add_argument("--torch", action="store_true", help="run FILE with real PyTorch")
    trace.set_defaults(func=_trace)
    run = sub.add_parser("run", help="run FILE with real PyTorch here, live in the page")
    run.add_argument("file", help="the script (a .py file)")
    run.add_argument("--torch", action="store_true", required=True, help="real PyTorch")
    run.add_argument("--host", default="127.0.0.1")
    run.add_argument("--port", type=int, default=0, help="0: any free port")
    run.add_argument("--no-open", dest="open", action="store_false", help="do not open a browser")
    run.add_argument("--pause-backward", action="store_true", help="pause before each node")
    run.set_defaults(func=_run)
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
