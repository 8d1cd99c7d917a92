"""Length-prefixed frames: 4-byte big-endian length, then orjson of a JSON array or object."""

from __future__ import annotations

import gc
import struct
from typing import Any

import orjson

HEADER = struct.Struct(">I")


class FrameError(Exception):
    """The event channel carried something that is not a well-formed frame."""


def encode(payload: list[dict[str, Any]] | dict[str, Any]) -> bytes:
    """One frame: header plus the JSON body (a batch of events, or the final summary)."""
    body = orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY)
    return HEADER.pack(len(body)) + body


class FrameReader:
    """Splits a byte stream into decoded frames, refusing anything out of bounds."""

    def __init__(self, max_frame_bytes: int) -> None:
        self._buf = bytearray()
        self._max = max_frame_bytes

    def feed(self, data: bytes) -> list[list[dict[str, Any]] | dict[str, Any]]:
        """Add bytes; return the frames now complete (raises FrameError on a bad one)."""
        self._buf += data
        out: list[list[dict[str, Any]] | dict[str, Any]] = []
        while len(self._buf) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._buf)
            if size > self._max:
                raise FrameError(f"frame of {size} bytes exceeds the {self._max}-byte limit")
            if len(self._buf) < HEADER.size + size:
                break
            body = bytes(self._buf[HEADER.size : HEADER.size + size])
            del self._buf[: HEADER.size + size]
            out.append(_decode(body))
        return out

    @property
    def pending(self) -> int:
        """Bytes of an unfinished frame (non-zero at end of stream means a torn frame)."""
        return len(self._buf)


def _decode(body: bytes) -> list[dict[str, Any]] | dict[str, Any]:
    # a frame is thousands of new containers that the run log keeps: collecting while they
    # are made would traverse the whole log again and again (5x slower on large runs)
    enabled = gc.isenabled()
    gc.disable()
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise FrameError(f"frame is not JSON: {exc}") from None
    finally:
        if enabled:
            gc.enable()
    if isinstance(value, dict):
        return value
    if not isinstance(value, list):
        raise FrameError(f"frame is a JSON {type(value).__name__}, not an array or object")
    for event in value:
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise FrameError("event without a string 'type'")
    return value
