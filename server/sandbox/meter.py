"""Caps the parent enforces on what a run sends back: output bytes, line length, events."""

from __future__ import annotations

import math

from protocol import TEXT_EVENT_TYPES
from server.sandbox.batch import Batch, TensorHead
from server.sandbox.settings import SandboxSettings


class LimitExceeded(Exception):
    """A cap was passed; the message says which."""


class Meter:
    """Counts events and printed bytes across every channel of one run."""

    def __init__(self, settings: SandboxSettings) -> None:
        self._s = settings
        self.events = 0
        self.output_bytes = 0
        self.event_bytes = 0
        self.errors = 0  # error events from the worker
        self.halted_line: int | None = None  # where the worker said it was when halted
        self._line = {"stdout": 0, "stderr": 0}

    def events_in(self, batch: Batch) -> bool | None:
        """Account for a batch from the worker (raises LimitExceeded). True if it holds a
        `paused` event (the stepper now waits for the user); False if it holds events that
        only a running snippet sends (a snippet can forge `paused` to stop the wall clock,
        but not while it goes on working); None if it holds only answers (tensor_values)."""
        self.count(len(batch))
        paused: bool | None = None
        for head in batch.heads:
            kind = head.type
            if kind == "error":
                self.errors += 1
            elif kind == "halted" and type(head.line) is int:
                self.halted_line = head.line
            if kind != "tensor_values":
                paused = paused or kind == "paused"
            if kind in TEXT_EVENT_TYPES:
                if isinstance(head.text, str):
                    self.text(kind, head.text)
            elif kind == "tensor" and isinstance(head.tensor, TensorHead):
                self.tensor(head.tensor.shape)
        return paused

    def tensor(self, shape: object) -> None:
        """Refuse a tensor with more elements than allowed (its shape as the tracer sent it)."""
        if not isinstance(shape, list) or not all(isinstance(n, int) for n in shape):
            return
        numel = math.prod(shape)
        if numel > self._s.max_tensor_elements:
            limit = self._s.max_tensor_elements
            raise LimitExceeded(f"a tensor of {numel} elements (the limit is {limit})")

    def stream(self, nbytes: int) -> None:
        """Account for `nbytes` more bytes on the event channel."""
        self.event_bytes += nbytes
        if self.event_bytes > self._s.max_event_bytes:
            raise LimitExceeded(f"more than {self._s.max_event_bytes} bytes of events")

    def count(self, n: int) -> None:
        """Account for `n` more events."""
        self.events += n
        if self.events > self._s.max_events:
            raise LimitExceeded(f"more than {self._s.max_events} events")

    def text(self, stream: str, text: str) -> None:
        """Account for printed text on `stream` (counted in UTF-8 bytes)."""
        self.output_bytes += _nbytes(text)
        if self.output_bytes > self._s.max_output_bytes:
            raise LimitExceeded(f"more than {self._s.max_output_bytes} bytes of output")
        parts = text.split("\n")
        current = self._line[stream] + _nbytes(parts[0])
        longest = max([current, *(_nbytes(p) for p in parts[1:])])
        self._line[stream] = current if len(parts) == 1 else _nbytes(parts[-1])
        if longest > self._s.max_line_bytes:
            raise LimitExceeded(f"an output line longer than {self._s.max_line_bytes} bytes")


def _nbytes(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))
