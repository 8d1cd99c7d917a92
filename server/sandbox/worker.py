"""The process that runs one snippet: limits itself, then the engine and the tracer run the code.

Started by `server.sandbox.prestart` (inside bubblewrap, or in weak mode as a separate uid)
ahead of its run; reads a boot line (limits, socket, uid) and then its job as JSON on stdin;
writes framed event batches on the socket and reads JSON-line commands from it. Nothing here
trusts the snippet: the parent re-checks every frame.
"""

from __future__ import annotations

import contextlib
import math
import os
import queue
import resource
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import orjson

from server.sandbox import frames

CHANNEL_FD = 3
# the snippet shares this interpreter and can replace os._exit; the worker keeps its own
_exit = os._exit
# A printed megabyte is cut into events of this size so no single frame gets huge.
TEXT_CHUNK = 64 * 1024
# How the command reader tells the running snippet that the server is about to end the run
HALT_SIGNAL = signal.SIGUSR1
# Commands read but not yet taken by the stepper: past this the reader stops reading, so a
# run that never takes its commands leaves them with the server, which bounds and refuses them
INBOX_BYTES = 1 << 20


class Channel:
    """The worker's end of the event/control socket."""

    def __init__(self, fd: int, max_frame_bytes: int) -> None:
        self._sock = socket.socket(fileno=fd)
        self._max = max_frame_bytes
        self._inbox = bytearray()
        self._inbox_q: queue.SimpleQueue[tuple[dict[str, Any], int]] = queue.SimpleQueue()
        self._unread = threading.Condition()
        self._unread_bytes = 0
        self._main: int | None = None
        self.halt_why: str | None = None  # why the server halts the run, once it does
        self.t0 = time.monotonic_ns()
        # Only the worker itself speaks on the channel: a process the snippet forks would
        # otherwise write its own frames (and its own summary) into the run's stream.
        self._pid = os.getpid()
        os.register_at_fork(after_in_child=self._forked)

    def _forked(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.close()

    def send(self, payload: list[dict[str, Any]] | dict[str, Any]) -> None:
        """Write one frame; a batch too large for one frame is split."""
        if os.getpid() != self._pid:
            # a forked child: its output still reaches the run as plain text on fd 1/2
            for event in payload if isinstance(payload, list) else ():
                if event.get("type") in ("stdout", "stderr") and isinstance(event.get("text"), str):
                    os.write(1 if event["type"] == "stdout" else 2, event["text"].encode())
            return
        data = frames.encode(payload)
        if len(data) - frames.HEADER.size <= self._max:
            self._sock.sendall(data)
        elif isinstance(payload, list) and len(payload) > 1:
            half = len(payload) // 2
            self.send(payload[:half])
            self.send(payload[half:])
        else:
            raise OverflowError(f"one event of {len(data)} bytes exceeds the frame limit")

    def sink(self, batch: list[dict[str, Any]]) -> None:
        """The tracer's sink: text events are chunked, then the batch is framed."""
        out: list[dict[str, Any]] = []
        for event in batch:
            text = event.get("text")
            if isinstance(text, str) and len(text) > TEXT_CHUNK:
                for i in range(0, len(text), TEXT_CHUNK):
                    out.append({**event, "text": text[i : i + TEXT_CHUNK]})
            else:
                out.append(event)
        if out:
            self.send(out)

    def start_reader(self) -> None:
        """Read commands on a thread of their own from now on: a `halt` is acted on while the
        snippet runs (a signal to the main thread), not only when the stepper asks."""
        self._main = threading.main_thread().ident
        threading.Thread(target=self._read_loop, name="backscope-commands", daemon=True).start()

    def _read_loop(self) -> None:
        sock = self._sock  # (recv here while the main thread sends: a socket allows both)
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:
                chunk = b""
            if not chunk:
                self._inbox_q.put(({"type": "stop"}, 0))  # the server is gone: stop
                return
            self._inbox += chunk
            while b"\n" in self._inbox:
                line, _, rest = bytes(self._inbox).partition(b"\n")
                self._inbox = bytearray(rest)
                cmd = _command(line)
                with self._unread:
                    self._unread_bytes += len(line)
                self._inbox_q.put((cmd, len(line)))
                if cmd.get("type") == "halt" and self._main is not None:
                    self.halt_why = str(cmd.get("why") or "killed")
                    with contextlib.suppress(Exception):
                        signal.pthread_kill(self._main, HALT_SIGNAL)
            with self._unread:
                while self._unread_bytes > INBOX_BYTES:
                    self._unread.wait()

    def read_command(self, timeout: float | None) -> dict[str, Any] | None:
        """The next command, or None when none came in time."""
        try:
            if timeout == 0.0:
                cmd, size = self._inbox_q.get_nowait()
            else:
                cmd, size = self._inbox_q.get(timeout=timeout)
        except queue.Empty:
            return None
        with self._unread:
            self._unread_bytes -= size
            self._unread.notify()
        return cmd


def _command(line: bytes) -> dict[str, Any]:
    try:
        cmd = orjson.loads(line)
    except orjson.JSONDecodeError:
        return {"type": "invalid"}
    return (
        cmd if isinstance(cmd, dict) and isinstance(cmd.get("type"), str) else {"type": "invalid"}
    )


class Controller:
    """What the backward stepper blocks on: commands from the browser via the parent."""

    def __init__(self, channel: Channel) -> None:
        self._channel = channel

    def wait(self) -> dict[str, Any]:
        """Block until the next command."""
        while True:
            cmd = self._channel.read_command(None)
            if cmd is not None:
                return cmd

    def poll(self) -> dict[str, Any] | None:
        """The next command if one is waiting, else None."""
        return self._channel.read_command(0.0)

    @property
    def halt_why(self) -> str | None:
        """Why the server is halting the run (its status to be), once it said so."""
        return self._channel.halt_why


def apply_limits(limits: dict[str, int]) -> None:
    """Kernel-enforced limits for this process and all it spawns."""
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits["file_size_bytes"],) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"],) * 2)
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"],) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def limit_cpu(seconds: int) -> None:
    """CPU seconds for the snippet, on top of what starting the worker took."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = math.ceil(usage.ru_utime + usage.ru_stime) + seconds
    # the soft limit sends SIGXCPU; the hard one a second later is a SIGKILL nobody can catch
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))


def drop_to(uid: int, gid: int) -> None:
    """Become the slot's uid (inside bubblewrap the worker starts as root without capabilities
    except setuid/setgid, which this drops for good)."""
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise RuntimeError("could not drop to the slot uid")


def _load_runner() -> Callable[..., dict[str, Any]]:
    import engine

    engine.install_as_torch()
    from engine.tracing import run_snippet

    fn: Callable[..., dict[str, Any]] = run_snippet
    return fn


def _low_fd(fd: int) -> int:
    """Move the channel to fd 3, whatever number the parent (with its many open fds) gave it:
    the worker looks the same to every run, and the channel stays below any fd limit."""
    if fd != CHANNEL_FD:
        os.dup2(fd, CHANNEL_FD, inheritable=False)
        os.close(fd)
    return CHANNEL_FD


def main() -> None:
    """Set up from the boot line, wait for the job, run the snippet, send the summary."""
    stdin = sys.stdin.buffer
    boot = orjson.loads(stdin.readline())
    apply_limits(boot["limits"])
    channel = Channel(_low_fd(boot["fd"]), boot["max_frame_bytes"])
    import numpy  # noqa: F401  (import before the filter and before the clock of the run)

    run_snippet = _load_runner()
    from server.sandbox import seccomp_filter

    seccomp = seccomp_filter.build()
    # Pre-started: everything above happened ahead of the run; now wait for the job. The uid,
    # the CPU clock and the filter are applied only once it is here.
    raw = stdin.read()
    if not raw:
        os._exit(0)  # never given a job (the server discarded this worker, or is gone)
    job = orjson.loads(raw)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)  # input() in the snippet sees end of file
    os.close(devnull)
    if boot.get("uid") is not None:
        drop_to(boot["uid"], boot["gid"])
    limit_cpu(boot["limits"]["cpu_seconds"])
    seccomp.load()
    channel.t0 = time.monotonic_ns()
    signal.signal(HALT_SIGNAL, signal.SIG_IGN)  # (until run_snippet handles it: never fatal)
    channel.start_reader()
    summary = _run(run_snippet, channel, job)
    try:
        channel.send({"summary": summary})
    except OSError:
        _exit(3)  # procs.CHANNEL_LOST (not imported: the worker keeps its imports few)
    with contextlib.suppress(Exception):  # the snippet may have replaced sys.stdout
        sys.stdout.flush()
    # skip the snippet's atexit handlers and finalizers: the run is over
    _exit(0)


def _run(run_snippet: Callable[..., dict[str, Any]], channel: Channel, job: dict[str, Any]) -> Any:
    try:
        return run_snippet(
            job["code"],
            channel.sink,
            controller=Controller(channel),
            options={
                **(job.get("options") or {}),
                "halt_signal": int(HALT_SIGNAL),
                # the CPU limit's soft signal: send what the run has before the hard kill
                "cpu_signal": int(signal.SIGXCPU),
                # channel.sink writes each batch at once, with orjson's numpy option (frames)
                "arrays": True,
            },
            filename="<snippet>",
        )
    except BaseException as exc:  # SystemExit, KeyboardInterrupt: the run still ends cleanly
        return {"status": "error", "error": {"type": type(exc).__name__, "message": str(exc)}}


if __name__ == "__main__":
    main()
