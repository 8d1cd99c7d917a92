"""`run_snippet`: execute user code with `torch` meaning the engine, under the tracer."""

from __future__ import annotations

import builtins
import codecs
import io
import linecache
import signal
import sys
import threading
import time
import traceback
import warnings
from collections.abc import Callable
from types import FrameType
from typing import Any

from engine.autograd import observer
from engine.tracing import captures as cap
from engine.tracing.halting import EventLimit, RunHalted, RunStopped
from engine.tracing.stepper import Backward
from engine.tracing.tracer import Sink, Tracer
from protocol import Error, RunStatus

TEXT_CHUNK = 1 << 16  # a stdout/stderr event grows up to this many characters


class _Stream(io.TextIOBase):
    """sys.stdout/sys.stderr during a run: each write becomes (part of) an event."""

    def __init__(self, tracer: Tracer, kind: str) -> None:
        self.tr = tracer
        self.kind = kind
        self.buffer = _Bytes(self)  # sys.stdout.buffer.write(b"...") works as in a terminal

    def write(self, s: str) -> int:
        if not s.isascii():
            s.encode("utf-8")  # a lone surrogate raises UnicodeEncodeError, as on a UTF-8 stdout
        # the snippet's threads write too: no text may go into an event a flush is sending
        with self.tr.lock:
            buf = self.tr.buf
            last = buf[-1] if buf else None
            # consecutive writes to one stream share an event (print writes text, then "\n")
            if (
                type(last) is cap.Raw
                and last.event["type"] == self.kind
                and len(last.event["text"]) < TEXT_CHUNK
            ):
                last.event["text"] += s
            elif self.kind == "stdout":
                self.tr.emit({"type": "stdout", "t": self.tr.now(), "text": s})
            else:
                self.tr.emit({"type": "stderr", "t": self.tr.now(), "text": s})
            if s.endswith("\n"):
                # line-buffered like a terminal, so output shows while the snippet runs
                self.tr.flush()
        return len(s)

    def flush(self) -> None:
        self.tr.flush()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"


class _Bytes(io.RawIOBase):
    """`sys.stdout.buffer` during a run: bytes are decoded as UTF-8 into the text stream (a
    character split across writes is decoded once complete)."""

    def __init__(self, text: _Stream) -> None:
        self.text = text
        self.decode = codecs.getincrementaldecoder("utf-8")("replace").decode

    def write(self, b: Any) -> int:
        data = bytes(b)
        s = self.decode(data)
        if s:
            self.text.write(s)
        return len(data)

    def writable(self) -> bool:
        return True

    def flush(self) -> None:
        self.text.flush()


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: Any = None,
    line: str | None = None,
) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def _snippet_line(tb: Any, filename: str) -> int | None:
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _script_filters() -> None:
    """Python's own warning filters for `python file.py`, whatever the host process set
    (pytest's, the server's): a DeprecationWarning shows only when the snippet's own code
    triggers it, so library deprecations stay quiet as PyTorch's do."""
    warnings.resetwarnings()
    for quiet in (ResourceWarning, ImportWarning, PendingDeprecationWarning, DeprecationWarning):
        warnings.simplefilter("ignore", quiet)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")


def _error_event(e: BaseException, filename: str, bw: Backward) -> Error:
    tb = e.__traceback__
    tb = tb.tb_next if tb is not None else None  # drop run_snippet's own frame
    line = _snippet_line(tb, filename)
    if isinstance(e, SyntaxError) and e.filename == filename:
        line = e.lineno
    text = "".join(traceback.format_exception(type(e), e, tb))
    node = bw.failed if bw is not None else None
    trace = None
    if node is not None and node._trace is not None:  # recorded only in anomaly mode
        trace = list(node._trace)
    return {
        "type": "error",
        "t": bw.tr.now(),
        "source": "snippet",
        "error_type": type(e).__name__,
        "message": str(e) if not isinstance(e, SyntaxError) else (e.msg or str(e)),
        "line": line,
        "traceback": text,
        "node": bw.tr.nodes.get(node) if node is not None else None,
        "anomaly_trace": trace,
    }


def _on_halt(tr: Tracer, controller: Any, opts: dict[str, Any]) -> Callable[[], None]:
    """Let a halt signal flush the run and stop the snippet where it is: `halt_signal` (the
    worker's command reader sends it on the server's `halt`, why = the controller's
    `halt_why`) and `cpu_signal` (the kernel's SIGXCPU at the CPU limit: why = timeout).
    Returns the undo."""
    signals: dict[int, RunStatus | None] = {}
    if opts.get("halt_signal"):
        signals[int(opts["halt_signal"])] = None
    if opts.get("cpu_signal"):
        signals[int(opts["cpu_signal"])] = "timeout"
    if not signals or threading.current_thread() is not threading.main_thread():
        return lambda: None

    def handler(sig: int, frame: FrameType | None) -> None:
        why = signals.get(sig) or getattr(controller, "halt_why", None) or "killed"
        tr.halt(why, frame)

    prev = {sig: signal.signal(sig, handler) for sig in signals}

    def undo() -> None:
        for sig, old in prev.items():
            signal.signal(sig, old)

    return undo


def run_snippet(
    code: str,
    sink: Sink,
    *,
    controller: Any = None,
    options: dict[str, Any] | None = None,
    filename: str = "<snippet>",
) -> dict[str, Any]:
    """Run `code` traced; events go to `sink` in batches; returns a summary.

    Options: pause_in_backward, breakpoints, max_events, inline_limit, batch, retain, linger,
    halt_signal/cpu_signal (see `_on_halt`), and the value budgets of `Tracer`. A halted run's
    summary has status "halted" and `why`.
    """
    import engine

    opts = dict(options or {})
    engine.install_as_torch()
    tr = Tracer(sink, filename, opts)
    bw = Backward(tr, controller, opts)
    tr.backward = bw
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    ns: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins, "__file__": filename}
    start = time.perf_counter_ns()
    unhalt = _on_halt(tr, controller, opts)
    halted: RunHalted | None = None
    try:
        status, error, halted = _execute(code, ns, tr, bw, filename)
        try:
            if error is not None:
                tr.emit(error)
            tr.flush()
            if opts.get("linger") and status in ("ok", "error"):
                bw.linger()
        except EventLimit:
            status = "limit"
        except RunHalted as e:
            status, halted = "halted", e
        except RunStopped:
            pass
    finally:
        unhalt()
    summary: dict[str, Any] = {
        "status": status,
        "events": tr.count,
        "duration_ns": time.perf_counter_ns() - start,
    }
    if halted is not None:
        summary["why"] = halted.why
    if error is not None:
        summary["error"] = {k: error[k] for k in ("error_type", "message", "line")}
    return summary


def _execute(
    code: str, ns: dict[str, Any], tr: Tracer, bw: Backward, filename: str
) -> tuple[str, Error | None, RunHalted | None]:
    """Run the snippet with the tracer installed: (status, the error event if it raised, the
    halt if the run was halted)."""
    status = "ok"
    error: Error | None = None
    halted: RunHalted | None = None
    saved = sys.stdout, sys.stderr
    prev = observer.TRACER
    try:
        compiled = compile(code, filename, "exec")
        sys.stdout, sys.stderr = _Stream(tr, "stdout"), _Stream(tr, "stderr")
        observer.install(tr)
        with warnings.catch_warnings():  # warnings print to stderr, as in `python file.py`
            _script_filters()
            warnings.showwarning = _show_warning
            exec(compiled, ns)
    except RunHalted as e:
        status, halted = "halted", e
    except RunStopped:
        status = "stopped"
    except EventLimit:
        status = "limit"
    except SystemExit as e:
        if e.code not in (None, 0):
            status, error = "error", _error_event(e, filename, bw)
    except BaseException as e:
        status, error = "error", _error_event(e, filename, bw)
    finally:
        observer.install(prev)
        sys.stdout, sys.stderr = saved
    return status, error, halted
