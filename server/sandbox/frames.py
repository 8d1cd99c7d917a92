"""Length-prefixed frames: 4-byte big-endian length, then the JSON of an array or an object.

The worker writes frames (`encode`); the parent reads them (`FrameReader`), checking each body
into a `Batch` of events or the worker's final summary object.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    from server.sandbox.batch import Batch

HEADER = struct.Struct(">I")
_SPACE = b" \t\r\n"


class FrameError(Exception):
    """The event channel carried something that is not a well-formed frame."""


def encode(payload: list[dict[str, Any]] | dict[str, Any]) -> bytes:
    """One frame: header plus the JSON body (a batch of events, or the final summary)."""
    body = orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY)
    return HEADER.pack(len(body)) + body


class FrameReader:
    """Splits a byte stream into checked frames, refusing anything out of bounds."""

    def __init__(self, max_frame_bytes: int) -> None:
        # imported here, in the parent: the worker imports this module and skips msgspec
        from server.sandbox import batch

        self._batch = batch
        self._buf = bytearray()
        self._max = max_frame_bytes

    def feed(self, data: bytes) -> list[Batch | dict[str, Any]]:
        """Add bytes; return the frames now complete (raises FrameError on a bad one)."""
        buf = self._buf
        buf += data
        out: list[Batch | dict[str, Any]] = []
        pos, end = 0, len(buf)
        with memoryview(buf) as view:
            while end - pos >= HEADER.size:
                (size,) = HEADER.unpack_from(buf, pos)
                if size > self._max:
                    raise FrameError(f"frame of {size} bytes exceeds the {self._max}-byte limit")
                if end - pos - HEADER.size < size:
                    break
                start = pos + HEADER.size
                pos = start + size
                # one copy the batch can keep (its events point into it); the buffer is
                # trimmed once per feed instead of once per frame
                out.append(self._decode(bytes(view[start:pos])))
        del buf[:pos]
        return out

    def _decode(self, body: bytes) -> Batch | dict[str, Any]:
        batch = self._batch
        try:
            if body.lstrip(_SPACE)[:1] == b"[":
                checked: Batch = batch.Batch.decode(body)
                checked.check_worker(body)  # every event the worker's to send, as the protocol says
                return checked
            value = batch.decode_any(body)
        except batch.BatchError as exc:
            raise FrameError(str(exc)) from None
        if not isinstance(value, dict):
            raise FrameError(f"frame is a JSON {type(value).__name__}, not an array or object")
        return value

    @property
    def pending(self) -> int:
        """Bytes of an unfinished frame (non-zero at end of stream means a torn frame)."""
        return len(self._buf)
