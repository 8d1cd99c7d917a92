"""What a stored run is, and the small interface a run store implements."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from server.eventlog import Chunk

# A run whose log is still being written (flushed during the run); every other status is a
# RunStatus of the protocol and final.
RUNNING = "running"


@dataclass
class StoredRun:
    """A run's row: code, how it ended, its options, when, and what its log holds.

    `owner` is the owner key's digest (never the cookie itself), `quota` the digest of the
    key its storage counts against (its owner token, its user, or, for a client without a
    token, its address: see trust/identity.py; empty: the owner), `bytes` the log's size plus
    the code's, `shared` whether anyone but the owner has opened it (kept longer by eviction).
    """

    id: str
    code: str
    status: str
    options: dict[str, Any]
    created: float
    duration_ms: float
    n_events: int
    owner: str = ""
    bytes: int = 0
    shared: bool = False
    instance: str = ""
    quota: str = ""


def stored_run(row: Sequence[Any]) -> StoredRun:
    """A run's row as both stores select it (their COLUMNS, in StoredRun's order; the options
    as JSON text)."""
    return StoredRun(
        row[0],
        row[1],
        row[2],
        orjson.loads(row[3]),
        row[4],
        row[5],
        row[6],
        row[7],
        row[8],
        bool(row[9]),
        row[10],
        row[11],
    )


def run_row(run: StoredRun) -> tuple[Any, ...]:
    """A run's row as both stores insert it (their COLUMNS, then the heartbeat): the options as
    JSON text, the code's size, the quota key (its owner's when it has none)."""
    return (
        run.id,
        run.code,
        run.status,
        orjson.dumps(run.options).decode(),
        run.created,
        run.duration_ms,
        run.n_events,
        run.owner,
        len(run.code.encode()),
        run.shared,
        run.instance,
        run.quota or run.owner,
        time.time(),
    )


@dataclass(frozen=True)
class Usage:
    """How much the store holds."""

    runs: int
    bytes: int
    file_bytes: int


@dataclass(frozen=True)
class Retention:
    """Caps on what the store keeps, and how long (0 = no age limit).

    When a save would put the store over `max_store_bytes` (or the saving quota key over
    `max_owner_bytes`), runs are evicted: the key's own oldest first when it is over its
    share; then, while the store is over its cap, the oldest never-shared run of whichever key
    holds the most, then shared ones the same way (one client storing run after run evicts its
    own runs, not everyone's). A run being written is never evicted.
    """

    max_store_bytes: int
    max_owner_bytes: int
    max_age_s: float = 0.0


@dataclass
class Recovery:
    """What opening the store found: a file it could not read, moved aside (never deleted)."""

    moved_to: str | None = None
    reason: str | None = None
    notes: list[str] = field(default_factory=list)


class StoreUnavailable(RuntimeError):
    """The store cannot be opened (an unsupported or unreachable database, a schema written
    by a newer server): the message says which, for a person starting the server."""


class RunStore(Protocol):
    kind: str  # which database: "sqlite" or "postgresql" (shown at /healthz)

    def begin(self, run: StoredRun) -> None: ...
    def append(self, run_id: str, chunks: Sequence[Chunk]) -> None: ...
    def finish(self, run: StoredRun, chunks: Sequence[Chunk]) -> None: ...
    def save(self, run: StoredRun, chunks: Sequence[Chunk]) -> None: ...
    def get(self, run_id: str) -> StoredRun | None: ...
    def mark_shared(self, run_id: str) -> None: ...
    def chunks(
        self, run_id: str, after: int = -1, limit: int | None = None, max_bytes: int | None = None
    ) -> list[Chunk]: ...
    def events(
        self, run_id: str, after: int = -1, limit: int | None = None
    ) -> list[dict[str, Any]]: ...
    def evict(self, retention: Retention, quota: str = "", incoming: int = 0) -> list[str]: ...
    def unfinished(self) -> list[tuple[str, str, float]]: ...
    def interrupt(self, run_id: str, status: str) -> bool: ...
    def usage(self) -> Usage: ...
    def close(self) -> None: ...
