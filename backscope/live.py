"""The page, live, for runs of this process: the server app (the same one `backscope serve`
runs) on a background thread, with a runner fed by real torch in this process instead of the
sandbox (`server.runs.Runner`: the app takes it through `create_app(settings, runner)`).

The user's code runs on its own thread (the script's main thread, a notebook's kernel thread);
the server's thread takes the page's commands and hands them to the stepper, which blocks the
backward where it pauses. `watch()` is the in-code entry point.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import inspect
import linecache
import os
import queue
import sys
import threading
import webbrowser
from collections.abc import AsyncIterator
from pathlib import Path
from types import TracebackType
from typing import Any

from backscope.capture.recorder import EventLimit, RunStopped

# runs of this process belong to the local page (whoever the server lets connect: its own
# origin on this machine)
OWNER = "anyone"  # server.runs.ANY_OWNER


class Commands:
    """The stepper's controller: commands the page sent, taken on the user's thread."""

    def __init__(self) -> None:
        self.q: queue.Queue[dict[str, Any]] = queue.Queue()
        self.waiting = False
        self.halted = False  # stopped: the capture refuses the user's next torch call

    def put(self, cmd: dict[str, Any]) -> None:
        self.q.put(cmd)

    def wait(self) -> dict[str, Any]:
        self.waiting = True
        try:
            return self.q.get()
        finally:
            self.waiting = False

    def poll(self) -> dict[str, Any] | None:
        try:
            return self.q.get_nowait()
        except queue.Empty:
            return None


class LocalRun:
    """One run of this process, as the server's run manager sees a sandboxed worker
    (`server.runs.Handle`): events in, commands out, kill."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.status = "ok"
        self.batches: asyncio.Queue[list[dict[str, Any]] | None] = asyncio.Queue()
        self.commands = Commands()
        self.thread: int | None = None  # the thread running the user's code
        self.done = threading.Event()

    # -- the user's side -----------------------------------------------------------------------
    def feed(self, events: list[dict[str, Any]]) -> None:
        """The capture's sink: hand a batch to the server's loop."""
        if events and not self.done.is_set():
            self.loop.call_soon_threadsafe(self.batches.put_nowait, list(events))

    def finish(self, status: str) -> None:
        if self.done.is_set():
            return
        if self.status == "ok":
            self.status = status
        self.done.set()
        if self.thread is not None:  # a stop that arrived as the code ended must not fire later
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.thread), None)
        self.loop.call_soon_threadsafe(self.batches.put_nowait, None)

    # -- the server's side (server.runs.Handle) ------------------------------------------------
    async def events(self) -> AsyncIterator[list[dict[str, Any]]]:
        while True:
            batch = await self.batches.get()
            if batch is None:
                return
            yield batch

    async def send(self, command: dict[str, Any]) -> None:
        self.commands.put(command)

    async def kill(self, reason: str) -> None:
        """The page's stop (or the server ending): the stepper stops at its next look, and
        code that is not paused is interrupted where it is (between two bytecodes)."""
        if self.done.is_set():
            return
        self.status = "stopped" if reason == "killed" else reason
        self.commands.halted = True
        self.commands.put({"type": "stop"})
        if self.thread is not None and not self.commands.waiting:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(self.thread), ctypes.py_object(RunStopped)
            )


class LocalRunner:
    """`server.runs.Runner` for this process: hands the manager the run this process is about
    to make; a run the page asks for itself is refused (the page shows this process's runs)."""

    def __init__(self) -> None:
        self.next: LocalRun | None = None

    async def run(
        self, code: str, options: dict[str, Any], on_queue: Any = None, owner: str = ""
    ) -> LocalRun:
        from server.sandbox import RunRefused

        handle, self.next = self.next, None
        if handle is None:
            raise RunRefused(
                "unavailable",
                "this page shows the runs of a Python process (real PyTorch): edit your script "
                "or notebook and run it again; to run pasted code, use `backscope serve`",
            )
        return handle

    def health(self) -> dict[str, Any]:
        return {"runner": "this process (real PyTorch)"}


def page_dir(default: Path) -> Path:
    """The built page: a checkout's frontend/dist, else the copy a wheel installed (under the
    environment's share/, or beside the packages for `pip install --target`)."""
    if (default / "index.html").is_file():
        return default
    here = Path(__file__).resolve().parents[1]
    for base in (Path(sys.prefix), here):
        found = base / "share" / "backscope" / "frontend"
        if (found / "index.html").is_file():
            return found
    return default


class LocalServer:
    """The app on a background thread of this process (one per process)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        from server.app import create_app
        from server.cli import UVICORN_WS
        from server.settings import Settings

        self.runner = LocalRunner()
        settings = Settings()
        settings.frontend_dist = page_dir(settings.frontend_dist)
        self.app = create_app(settings, runner=self.runner)  # type: ignore[arg-type]
        config = uvicorn.Config(
            self.app, host=host, port=port, log_level="warning", lifespan="on", **UVICORN_WS
        )
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.host = host
        self.port = port
        started = threading.Event()
        self.thread = threading.Thread(
            target=self._serve, args=(started,), name="backscope-server", daemon=True
        )
        self.thread.start()
        started.wait()
        if not self.server.started:
            raise RuntimeError(f"backscope: could not serve on {host}:{port}")
        sock = self.server.servers[0].sockets[0]
        self.port = int(sock.getsockname()[1])

    def _serve(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)

        async def main() -> None:
            task = asyncio.create_task(self.server.serve())
            while not self.server.started and not task.done():
                await asyncio.sleep(0.01)
            started.set()
            await task

        try:
            self.loop.run_until_complete(main())
        finally:
            started.set()

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def url(self, run_id: str) -> str:
        return f"{self.base}?run={run_id}"

    def new_run(self, code: str, options: dict[str, Any], engine: str) -> tuple[str, LocalRun]:
        """Register a run of this process with the app: (run id, its handle)."""

        async def start() -> tuple[str, LocalRun]:
            handle = LocalRun(self.loop)
            self.runner.next = handle
            live = self.app.state.manager.start(code, options, OWNER, engine=engine)
            return live.id, handle

        return asyncio.run_coroutine_threadsafe(start(), self.loop).result()

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


_SERVER: list[LocalServer] = []
_LOCK = threading.Lock()


def local_server(host: str | None = None, port: int | None = None) -> LocalServer:
    """This process's server, started on first use (BACKSCOPE_PORT picks the port)."""
    with _LOCK:
        if not _SERVER:
            h = host or os.environ.get("BACKSCOPE_HOST", "127.0.0.1")
            p = port if port is not None else int(os.environ.get("BACKSCOPE_PORT", "0"))
            _SERVER.append(LocalServer(h, p))
        return _SERVER[0]


def engine_name() -> str:
    import torch

    return f"PyTorch {torch.__version__.split('+')[0]}"


LAST: list[tuple[str, str]] = []  # (run id, page url) of this process's runs, newest last


class watch:  # (lower case: used as `with backscope.watch():`, like a function)
    """Stream what real torch does inside the block to a live page, where its backward can be
    stepped. Options: `open` (a browser tab; notebooks show it inline instead),
    `pause_backward`, `breakpoints`, `inline_limit`, `max_events`, `code`/`files` (the source
    the page shows and whose lines count; default: the caller's file or notebook cell),
    `record` (a list that also gets every event).
    """

    def __init__(
        self,
        *,
        open: bool = True,
        pause_backward: bool = False,
        breakpoints: list[dict[str, Any]] | None = None,
        code: str | None = None,
        files: set[str] | None = None,
        streams: str | None = "tee",
        record: list[dict[str, Any]] | None = None,
        **options: Any,
    ) -> None:
        self.open = open
        self.record = record  # also keep the events here (a notebook's static snapshot)
        self.options: dict[str, Any] = {
            "pause_in_backward": pause_backward,
            "breakpoints": list(breakpoints or []),
            **options,
        }
        self.code = code
        self.files = files
        self.streams = streams
        self.run_id = ""
        self.url = ""
        self._cap: Any = None
        self._handle: LocalRun | None = None

    def __enter__(self) -> watch:
        from backscope.capture import Capture

        frame = inspect.currentframe()
        caller = frame.f_back if frame is not None else None
        while caller is not None and caller.f_code.co_filename == __file__:
            caller = caller.f_back
        filename = caller.f_code.co_filename if caller is not None else "<unknown>"
        files = self.files or {filename}
        code = self.code
        if code is None:
            code = "".join(linecache.getlines(filename)) or f"# {filename}\n"
        server = local_server()
        wire_options = {k: v for k, v in self.options.items() if k in _RUN_OPTIONS}
        self.run_id, handle = server.new_run(code, wire_options, engine_name())
        self.url = server.url(self.run_id)
        LAST.append((self.run_id, self.url))
        handle.thread = threading.get_ident()
        self._handle = handle
        record = self.record

        def sink(batch: list[dict[str, Any]]) -> None:
            if record is not None:
                record.extend(batch)
            handle.feed(batch)

        self._cap = Capture(sink, files, handle.commands, self.options, streams=self.streams)
        if self.open:
            from backscope.notebook import in_notebook, page

            if in_notebook():  # (the kernel's machine may have no browser: show it inline)
                from IPython.display import display

                display(page(self.url))
            else:
                webbrowser.open(self.url)
        self._cap.__enter__()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        cap, handle = self._cap, self._handle
        assert cap is not None and handle is not None
        status = "ok"
        try:
            cap.__exit__(kind, exc, tb)
            if isinstance(exc, RunStopped):
                status = "stopped"
            elif isinstance(exc, EventLimit):
                status = "limit"
            elif exc is not None:
                status = "error"
                cap.rec.emit(cap.error_event(exc))
            with contextlib.suppress(EventLimit):
                cap.rec.flush()
        finally:
            handle.finish(status)
        return isinstance(exc, RunStopped | EventLimit)


_RUN_OPTIONS = ("pause_in_backward", "breakpoints", "max_events", "inline_limit")
