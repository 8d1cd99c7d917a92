"""Caps the parent enforces on what a run sends back: output bytes, line length, events."""

from __future__ import annotations

import math
from typing import Any

from server.sandbox.settings import SandboxSettings

TEXT_EVENTS = ("stdout", "stderr")


class LimitExceeded(Exception):
    """A cap was passed; the message says which."""


class Meter:
    """Counts events and printed bytes across every channel of one run."""

    def __init__(self, settings: SandboxSettings) -> None:
        self._s = settings
        self.events = 0
        self.output_bytes = 0
        self._line = {"stdout": 0, "stderr": 0}

    def events_in(self, batch: list[dict[str, Any]]) -> None:
        """Account for a batch from the worker (raises LimitExceeded)."""
        self.count(len(batch))
        for event in batch:
            text = event.get("text")
            if event["type"] in TEXT_EVENTS and isinstance(text, str):
                self.text(event["type"], text)
            elif event["type"] == "tensor" and isinstance(event.get("tensor"), dict):
                self.tensor(event["tensor"].get("shape"))

    def tensor(self, shape: object) -> None:
        """Refuse a tensor with more elements than allowed (its shape as the tracer sent it)."""
        if not isinstance(shape, list) or not all(isinstance(n, int) for n in shape):
            return
        numel = math.prod(shape)
        if numel > self._s.max_tensor_elements:
            limit = self._s.max_tensor_elements
            raise LimitExceeded(f"a tensor of {numel} elements (the limit is {limit})")

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
