"""Stepper commands on their way to a worker: held until its socket is open, then written
without waiting for the worker to read them, up to a bound.

Never waiting matters: a snippet that does not read its commands (busy, asleep) would
otherwise block the session that sends them, and with it the client's `stop`. Commands go
through their own descriptor (a duplicate of the worker's socket), not the transport that
reads its events: a worker that exits with commands unread makes writes fail, and a failed
write must not close the reading side before the worker's last frames (its summary) are read.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket

# commands written to a worker (or held for one still queued) that it has not read yet
MAX_PENDING_BYTES = 4 << 20


class Commands:
    """The parent's end of a worker's command stream."""

    def __init__(self) -> None:
        self._sock: socket.socket | None = None
        self._buf = bytearray()  # not yet taken by the socket (all of it until `open`)
        self._watching = False
        self._closed = False

    @property
    def opened(self) -> bool:
        return self._sock is not None

    def put(self, line: bytes) -> None:
        """Send one JSON line (or hold it until `open`); ValueError when too many wait."""
        if self._closed:
            return  # the worker is gone: the run reports its own end
        if len(self._buf) + len(line) > MAX_PENDING_BYTES:
            raise ValueError("too many commands are waiting for the run to take them")
        self._buf += line
        if self._sock is not None and not self._watching:
            self._flush()

    def open(self, sock: socket.socket) -> None:
        """Write to `sock` from now on, starting with what was held."""
        sock.setblocking(False)
        self._sock = sock
        self._flush()

    def close(self) -> None:
        self._closed = True
        self._buf.clear()
        if self._sock is not None:
            self._watch(False)
            self._sock.close()

    def _flush(self) -> None:
        assert self._sock is not None
        try:
            while self._buf:
                del self._buf[: self._sock.send(self._buf)]
        except BlockingIOError:
            self._watch(True)  # the worker reads slowly: go on when the socket takes more
            return
        except OSError:  # the worker is gone (or closed its end)
            self.close()
            return
        self._watch(False)

    def _watch(self, on: bool) -> None:
        if on == self._watching or self._sock is None:
            return
        loop = asyncio.get_running_loop()
        self._watching = on
        with contextlib.suppress(ValueError, OSError):  # a closed fd: nothing to watch
            if on:
                loop.add_writer(self._sock.fileno(), self._flush)
            else:
                loop.remove_writer(self._sock.fileno())
