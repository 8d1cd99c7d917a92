"""A watched stretch of real-torch code: `Capture` installs the function mode, the hook wrappers
and the backward recorder, and takes them out again; `run_file` runs a script under it, as
`python FILE.py` would, and reports how it ended (the summary `engine.tracing.run_snippet`
returns, for the same callers).
"""

from __future__ import annotations

import io
import os
import sys
import time
import traceback
import warnings
from types import TracebackType
from typing import Any

import torch

from backscope.capture.backward import Backward
from backscope.capture.recorder import EventLimit, Recorder, RunStopped, Sink

TEXT_CHUNK = 1 << 16
_OWN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script_filters() -> None:
    """Python's own warning filters for `python file.py`, whatever the host process set
    (pytest's, a server's): a DeprecationWarning shows only from the script's own code."""
    warnings.resetwarnings()
    for quiet in (ResourceWarning, ImportWarning, PendingDeprecationWarning, DeprecationWarning):
        warnings.simplefilter("ignore", quiet)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")


class Stream(io.TextIOBase):
    """sys.stdout/sys.stderr while watching: each write becomes (part of) an event; `tee`
    also writes it where it went before (a notebook's output)."""

    def __init__(self, rec: Recorder, kind: str, tee: Any = None) -> None:
        self.rec = rec
        self.kind = kind
        self.tee = tee

    def write(self, s: str) -> int:
        if self.tee is not None:
            self.tee.write(s)
        rec = self.rec
        held = rec.divert
        last = (
            (held[-1][0] if held else None)
            if held is not None
            else rec.buf[-1]
            if rec.buf
            else None
        )
        if last is not None and last["type"] == self.kind and len(last["text"]) < TEXT_CHUNK:
            last["text"] += s  # print writes the text, then "\n": one event
        else:
            rec.add({"type": self.kind, "t": rec.now(), "text": s})
        if s.endswith("\n") and rec.divert is None:
            rec.flush()
        return len(s)

    def flush(self) -> None:
        if self.tee is not None:
            self.tee.flush()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


class Capture:
    """Watch real torch inside a `with` block: events go to `sink` in batches.

    `files`: the user's source files (lines, names). `controller`: commands for the stepper
    (None: never pause). `streams`: capture print output as events (`tee` keeps it showing).
    """

    def __init__(
        self,
        sink: Sink,
        files: set[str],
        controller: Any = None,
        options: dict[str, Any] | None = None,
        prefixes: tuple[str, ...] = (),
        streams: str | None = "capture",
    ) -> None:
        opts = dict(options or {})
        self.rec = Recorder(sink, files, opts, prefixes)
        self.bw = Backward(self.rec, controller, opts)
        self.streams = streams
        self._saved: tuple[Any, Any] | None = None
        self._threads: Any = None
        self._show: Any = warnings.showwarning

    def __enter__(self) -> Capture:
        self.bw.install()
        self._threads = torch.autograd.set_multithreading_enabled(False)
        self._threads.__enter__()
        if self.streams is not None:
            self._saved = sys.stdout, sys.stderr
            tee = self.streams == "tee"
            sys.stdout = Stream(self.rec, "stdout", sys.stdout if tee else None)
            sys.stderr = Stream(self.rec, "stderr", sys.stderr if tee else None)
        self._show = warnings.showwarning
        warnings.showwarning = self._warning
        self.bw.forward.__enter__()
        return self

    def _warning(
        self,
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        """A warning PyTorch raised from C++ points at the innermost Python frame, which is
        backscope's function mode while it watches: show the user's line, as without it."""
        if filename.startswith(_OWN_DIR):
            lineno_, frame = self.rec.site(2)
            if frame is not None and lineno_ is not None:
                filename, lineno, line = frame.f_code.co_filename, lineno_, None
        if self.streams == "capture":  # a script's warnings go to its stderr, as events
            sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))
        else:
            self._show(message, category, filename, lineno, file, line)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.bw.forward.__exit__(None, None, None)
        warnings.showwarning = self._show
        if self._saved is not None:
            sys.stdout, sys.stderr = self._saved
            self._saved = None
        self._threads.__exit__(None, None, None)
        self.bw.uninstall()

    def error_event(self, e: BaseException, skip: int = 0) -> dict[str, Any]:
        """The error event for what the user's code raised: PyTorch's message, the user's
        line, the node that raised and (under detect_anomaly) its forward trace."""
        rec = self.rec
        tb = e.__traceback__
        for _ in range(skip):
            tb = tb.tb_next if tb is not None else None
        line = None
        walk = tb
        while walk is not None:
            if rec.is_user(walk.tb_frame.f_code.co_filename):
                line = walk.tb_lineno
            walk = walk.tb_next
        if isinstance(e, SyntaxError) and e.filename and rec.is_user(e.filename):
            line = e.lineno
        node = self.bw.failed
        trace = None
        if node is not None:
            with rec.quiet():
                meta = node.metadata
                if isinstance(meta, dict) and isinstance(meta.get("traceback_"), list):
                    trace = [str(s) for s in meta["traceback_"]]
        return {
            "type": "error",
            "t": rec.now(),
            "source": "snippet",
            "error_type": type(e).__name__,
            "message": str(e) if not isinstance(e, SyntaxError) else (e.msg or str(e)),
            "line": line,
            "traceback": "".join(traceback.format_exception(type(e), e, tb)),
            "node": rec.node_known(node) if node is not None else None,
            "anomaly_trace": trace,
        }


def run_file(
    path: str,
    sink: Sink,
    *,
    controller: Any = None,
    options: dict[str, Any] | None = None,
    code: str | None = None,
    linger: bool = False,
) -> dict[str, Any]:
    """Run the script at `path` (or `code` under that name) with real torch, watched, as
    `python path` runs it; returns {status, events, duration_ns, error?}."""
    path = os.path.abspath(path) if code is None else path
    if code is None:
        with open(path, encoding="utf-8") as f:
            code = f.read()
    cap = Capture(sink, {path}, controller, options)
    start = time.perf_counter_ns()
    status, error = "ok", None
    argv, sys_path0 = sys.argv, sys.path[:1]
    sys.argv = [path]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    ns: dict[str, Any] = {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__}
    try:
        with cap, warnings.catch_warnings():
            script_filters()
            try:
                exec(compile(code, path, "exec"), ns)
            except RunStopped:
                status = "stopped"
            except EventLimit:
                status = "limit"
            except SystemExit as e:
                if e.code not in (None, 0):
                    status, error = "error", cap.error_event(e, skip=1)
            except BaseException as e:
                status, error = "error", cap.error_event(e, skip=1)
        try:
            if error is not None:
                cap.rec.emit(error)
            cap.rec.flush()
            if linger and status in ("ok", "error"):
                cap.bw.stepper.linger()
        except EventLimit:
            status = "limit"
        except RunStopped:
            pass
    finally:
        sys.argv = argv
        if sys.path[:1] != sys_path0:
            del sys.path[0]
    summary: dict[str, Any] = {
        "status": status,
        "events": cap.rec.count,
        "duration_ns": time.perf_counter_ns() - start,
    }
    if error is not None:
        summary["error"] = {k: error[k] for k in ("error_type", "message", "line")}
    return summary
