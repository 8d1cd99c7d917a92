"""Opening the store whatever the file holds: a corrupt or truncated database is moved aside
(never deleted), a fresh one is made, and the server says so (log and /healthz)."""

from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path

from server.storage.interface import Recovery
from server.storage.sqlite import SqliteRunStore, connect

_log = logging.getLogger(__name__)
_SIDECARS = ("-wal", "-shm")


def damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether an error says the file is damaged (not a database, malformed), as opposed to
    busy, locked or unreadable: a file another process holds must never be moved aside."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def check(path: Path) -> str | None:
    """Why the file at `path` is not a sound database (None when it is, or is missing).

    `PRAGMA quick_check` reads every page once (about a second per GB when cached): a file cut
    short opens fine and fails only when a missing page is read, which must not be a client's
    read of a run in the middle of serving.
    """
    if not path.exists():
        return None
    try:
        db = connect(path)
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        if not damaged(exc):
            raise
        return f"{type(exc).__name__}: {exc}"
    problems = [str(r[0]) for r in rows if r and r[0] != "ok"]
    return "; ".join(problems[:5]) if problems else None


def move_aside(path: Path) -> Path:
    """Rename the file (and its WAL files) to `<name>.corrupt-<time>`; returns the new path."""
    stamp = time.strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    path.rename(target)
    for suffix in _SIDECARS:
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return target


def open_sqlite(path: Path, check_first: bool = True) -> tuple[SqliteRunStore, Recovery]:
    """The SQLite store at `path`, after moving a file it cannot use out of the way."""
    recovery = Recovery()
    reason = check(path) if check_first else None
    if reason is None:
        try:
            return SqliteRunStore(path), recovery
        except sqlite3.DatabaseError as exc:
            if not damaged(exc):
                raise
            reason = f"{type(exc).__name__}: {exc}"
    moved = move_aside(path)
    recovery.moved_to, recovery.reason = str(moved), reason
    _log.error(
        "the run database %s could not be used (%s): moved it to %s and started a new one",
        path,
        reason,
        moved,
    )
    return SqliteRunStore(path), recovery
