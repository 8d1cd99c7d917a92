"""A checked batch of events from the worker: each event's own JSON text and its head fields.

The parent never trusts a frame, but it does not rebuild one either: msgspec checks that the
body is a JSON array of objects with a string `type` (and reads the few fields the caps and the
stepper need) while keeping each event as the exact bytes the worker sent (`msgspec.Raw`), so
the run log can number events by appending to those bytes. Only the parent imports this module
(msgspec is not loaded in the worker).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from protocol import WORKER_EVENT_TYPES
from protocol.check import ProtocolError, check_worker_batch

UNSET: Any = msgspec.UNSET


class TensorHead(msgspec.Struct, gc=False):
    """The part of a `tensor` event's description the parent reads (the rest is skipped)."""

    shape: Any = None


class Head(msgspec.Struct, gc=False):
    """The fields of an event the parent looks at; every other field stays unparsed.

    Like a browser's JSON.parse, msgspec unescapes keys and keeps the last of duplicate keys,
    so what is checked here is what a client will see. `gc=False`: decoded JSON has no cycles.
    """

    type: str
    t: Any = UNSET
    run_id: Any = UNSET
    seq: Any = UNSET
    text: Any = None
    tensor: TensorHead | int | None = None  # (a `tensor` event's description, others' id)
    line: Any = None


_RAWS = msgspec.json.Decoder(list[msgspec.Raw])
_HEADS = msgspec.json.Decoder(list[Head])
_HEAD = msgspec.json.Decoder(Head)
_ANY = msgspec.json.Decoder()
_encode = msgspec.json.Encoder().encode


class BatchError(ValueError):
    """The body is not a JSON array of events the worker may send."""


class Batch:
    """Events as the worker sent them (`raws`, one JSON object each) and their `heads`.

    Iterating gives the events as dicts (parsed on demand, for tests and tools).
    """

    __slots__ = ("heads", "raws")

    def __init__(self, raws: list[Any], heads: list[Head]) -> None:
        self.raws = raws
        self.heads = heads

    @classmethod
    def decode(cls, body: bytes) -> Batch:
        """Check a frame body's structure (raises BatchError); `body` must be bytes the batch
        can keep."""
        try:
            # invalid UTF-8 inside a string would pass msgspec unseen and break a text frame
            str(body, "utf-8")
            raws = _RAWS.decode(body)
            heads = _HEADS.decode(body)
        except UnicodeDecodeError as exc:
            raise BatchError(f"frame is not UTF-8: {exc}") from None
        except msgspec.ValidationError as exc:
            raise BatchError(f"event without a string 'type' ({exc})") from None
        except (msgspec.DecodeError, RecursionError) as exc:
            raise BatchError(f"frame is not JSON: {exc}") from None
        return cls(raws, heads)

    def check_worker(self, body: bytes) -> None:
        """Refuse a batch (decoded from `body`) with an event that is not the worker's to
        send or does not fit the protocol (raises BatchError)."""
        for head in self.heads:
            if head.type not in WORKER_EVENT_TYPES:
                raise BatchError(f"a {head.type!r} event is not the worker's to send")
        try:
            check_worker_batch(body)
        except ProtocolError as exc:
            raise BatchError(f"an event does not fit the protocol: {exc}") from None

    @classmethod
    def of(cls, events: list[dict[str, Any]]) -> Batch:
        """A batch of the parent's own events (printed text from fd 1/2, sandbox errors)."""
        raws = [msgspec.Raw(_encode(event)) for event in events]
        return cls(raws, [_HEAD.decode(raw) for raw in raws])

    def __len__(self) -> int:
        return len(self.raws)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        for raw in self.raws:
            event: dict[str, Any] = _ANY.decode(raw)
            yield event


def normalized(raw: Any, run_id: str, seq: int, t_now: int) -> bytes:
    """An event re-serialized with the server's run_id, seq and t: for an event whose head
    shows it set run_id or seq itself, or a `t` that is not an integer (rare; never rebuilt
    otherwise)."""
    event: dict[str, Any] = _ANY.decode(raw)
    event["run_id"] = run_id
    event["seq"] = seq
    if type(event.get("t")) is not int:
        event["t"] = t_now
    return _encode(event)


def decode_any(body: bytes) -> Any:
    """Any JSON value (the worker's final summary); raises BatchError."""
    try:
        return _ANY.decode(body)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise BatchError(f"frame is not JSON: {exc}") from None
