"""A run's event log as chunks: each appended batch kept as one JSON array of bytes.

An event from the worker is never rebuilt: `stamp` appends the server's run_id and seq (and a
`t` when it has none) to the bytes the worker sent, and the chunk is then sent to every client
and stored as it is. A large run's log is a few hundred byte strings instead of millions of
containers for the garbage collector to walk. A client that resumes from the middle of a
chunk gets that chunk cut at an event boundary (found by msgspec, nothing is re-serialized).
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import orjson

from server.sandbox.batch import UNSET, Batch, normalized

_RAWS = msgspec.json.Decoder(list[msgspec.Raw])
_ANY = msgspec.json.Decoder()


@dataclass(frozen=True, slots=True)
class Chunk:
    """`count` events with seq `first` .. `first + count - 1`, as one JSON array."""

    first: int
    count: int
    body: bytes

    @property
    def last(self) -> int:
        return self.first + self.count - 1

    def events(self) -> list[dict[str, Any]]:
        """The events as dicts."""
        events: list[dict[str, Any]] = _ANY.decode(self.body)
        return events

    def after(self, seq: int) -> Chunk:
        """The events with seq > `seq` (this chunk itself when that is all of them)."""
        skip = seq + 1 - self.first
        if skip <= 0:
            return self
        return _cut(self.first + skip, _RAWS.decode(self.body)[skip:])

    def head(self, n: int) -> Chunk:
        """The first `n` events (this chunk itself when it has no more)."""
        if n >= self.count:
            return self
        return _cut(self.first, _RAWS.decode(self.body)[: max(n, 0)])


def _cut(first: int, raws: list[Any]) -> Chunk:
    return Chunk(first, len(raws), b"[" + b",".join(raws) + b"]")


def stamp(batch: Batch, run_id: str, first: int, t_now: int) -> Chunk:
    """Number a batch's events from seq `first`, with the run's id, as one chunk.

    The fields are appended to each event's own bytes. An event whose head shows a run_id or
    seq of its own, or a `t` that is not an integer, is rebuilt instead (`normalized`): the
    server's values must be the only ones a client can read.
    """
    tag = b',"run_id":' + orjson.dumps(run_id) + b',"seq":'
    missing_t = b',"t":%d}' % t_now
    out: list[bytes] = []
    seq = first
    for raw, head in zip(batch.raws, batch.heads, strict=True):
        if head.run_id is UNSET and head.seq is UNSET:
            # the event's bytes without their closing brace, then the server's fields
            if type(head.t) is int:
                out.append(b"%b%b%d}" % (bytes(raw)[:-1], tag, seq))
                seq += 1
                continue
            if head.t is UNSET:
                out.append(b"%b%b%d%b" % (bytes(raw)[:-1], tag, seq, missing_t))
                seq += 1
                continue
        out.append(normalized(raw, run_id, seq, t_now))
        seq += 1
    return Chunk(first, len(out), b"[" + b",".join(out) + b"]")


def pack(events: Sequence[Any]) -> Chunk:
    """Events that belong to no run's log (typed errors: seq -1) as a chunk to send."""
    return Chunk(-1, len(events), orjson.dumps(events))


def join(chunks: Iterable[Chunk]) -> bytes:
    """One JSON array of every chunk's events, from their bytes (nothing is re-serialized)."""
    bodies = [c.body for c in chunks if c.count]
    if len(bodies) == 1:
        return bodies[0]
    # each body is "[...]": drop the brackets without copying, then bracket the whole
    return b"[" + b",".join(memoryview(b)[1:-1] for b in bodies) + b"]"


def fit(chunks: list[Chunk], max_bytes: int) -> list[Chunk]:
    """`chunks` cut to about `max_bytes` (whole chunks, and a first chunk larger than that cut
    at an event boundary; always at least one event): what one frame may carry."""
    out: list[Chunk] = []
    size = 0
    for chunk in chunks:
        if out and size + len(chunk.body) > max_bytes:
            break
        if not out and len(chunk.body) > max_bytes and chunk.count > 1:
            chunk = chunk.head(max(1, chunk.count * max_bytes // len(chunk.body)))
            out.append(chunk)
            break
        out.append(chunk)
        size += len(chunk.body)
    return out


def window(chunks: Iterable[Chunk], after: int, limit: int | None = None) -> list[Chunk]:
    """The events with seq > `after`, at most `limit` of them, as chunks cut at both ends.

    `chunks` are in seq order; those that end at or before `after` are skipped.
    """
    out: list[Chunk] = []
    left = limit if limit is not None else -1
    for chunk in chunks:
        if chunk.last <= after:
            continue
        if left == 0:
            break
        part = chunk.after(after)
        if left > 0:
            part = part.head(left)
            left -= part.count
        if part.count:
            out.append(part)
    return out


class EventLog:
    """The chunks of one live run, in seq order, with the next seq to assign."""

    def __init__(self) -> None:
        self.chunks: list[Chunk] = []
        self._firsts: list[int] = []
        self.count = 0  # events so far, so also the next seq
        self.bytes = 0  # of the chunks' bodies

    def add(self, chunk: Chunk) -> None:
        """Append a chunk whose first seq is `count` (the caller stamped it so)."""
        if chunk.first != self.count:
            raise ValueError(f"chunk starts at seq {chunk.first}, the log at {self.count}")
        if chunk.count:
            self.chunks.append(chunk)
            self._firsts.append(chunk.first)
            self.count += chunk.count
            self.bytes += len(chunk.body)

    def after(
        self, after: int, limit: int | None = None, max_bytes: int | None = None
    ) -> list[Chunk]:
        """The events with seq > `after` (at most `limit`), cut from the log's chunks; with
        `max_bytes`, no more chunks once their bodies reach it (always at least one). Costs
        what it returns, not what the log holds (the start is found by bisection)."""
        start = max(bisect.bisect_right(self._firsts, after) - 1, 0)
        if max_bytes is None:
            return window(self._slice(start), after, limit)
        taken: list[Chunk] = []
        size = 0
        for chunk in itertools.islice(self.chunks, start, None):
            if chunk.last <= after:  # (the chunk bisection found ends before `after`)
                continue
            taken.append(chunk)
            size += len(chunk.body)
            if size >= max_bytes:
                break
        return window(taken, after, limit)

    def release(self) -> None:
        """Forget the chunks (the log is in storage now); the count stays."""
        self.chunks = []
        self._firsts = []

    def _slice(self, start: int) -> Iterable[Chunk]:
        return itertools.islice(self.chunks, start, None) if start else self.chunks
