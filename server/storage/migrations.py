"""Versioned schema migrations: numbered steps, applied in order at open, each database
recording the version it is at (SQLite: `PRAGMA user_version`; PostgreSQL: the
`schema_migrations` table). One runner for both backends; each has its own list of steps.

>>> STEPS = (Migration(1, "runs and their logs", make_tables), Migration(2, "...", add_x))
>>> applied = upgrade(db, STEPS, current=1, record=write_version)   # [2]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from server.storage.interface import StoreUnavailable

Db = TypeVar("Db")


@dataclass(frozen=True)
class Migration(Generic[Db]):
    """One step: what brings a database at `version - 1` (or, for a backend's first step,
    anything older) to `version`."""

    version: int
    summary: str
    apply: Callable[[Db], None]


class SchemaTooNew(StoreUnavailable):
    """The database was written by a newer server (its schema version is past ours)."""


def check_steps(steps: Sequence[Migration[Db]]) -> None:
    """Versions strictly increasing, without gaps after the first."""
    versions = [step.version for step in steps]
    if not versions or versions != list(range(versions[0], versions[0] + len(versions))):
        raise ValueError(f"migration versions must be consecutive: {versions}")


def upgrade(
    db: Db,
    steps: Sequence[Migration[Db]],
    current: int,
    record: Callable[[Db, Migration[Db]], None],
) -> list[int]:
    """Apply every step past `current`, in order, recording each (inside the caller's
    transaction: all of them or none); returns the versions applied."""
    check_steps(steps)
    latest = steps[-1].version
    if current > latest:
        raise SchemaTooNew(
            f"the run database is at schema version {current}, and this server knows versions "
            f"up to {latest}: run a newer server, or point it at another database"
        )
    applied = []
    for step in steps:
        if step.version > current:
            step.apply(db)
            record(db, step)
            applied.append(step.version)
    return applied
