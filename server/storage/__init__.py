"""Stored runs: code, status, owner and the complete event log, in an SQLite file (the
default) or a PostgreSQL database (`BACKSCOPE_DATABASE_URL=postgresql://…`, for several
replicas), behind one small interface (`RunStore`). A run is
stored while it runs (`begin`, then `append` every few seconds, then `finish`), so a crash
loses at most the last few seconds; saving costs what the run is, whatever the store holds;
`evict` keeps the store under its caps (see `Retention`).

>>> store, recovery = open_store(Path("runs.sqlite3"))   # a corrupt file is moved aside
>>> store, _ = open_store("postgresql://backscope@db/backscope")   # migrated at open
>>> store.begin(StoredRun(run_id, code, "running", {}, time.time(), 0.0, 0, owner="ab12"))
>>> store.append(run_id, log.chunks[:10]); store.finish(final, log.chunks[10:])
"""

from server.storage.interface import (
    RUNNING,
    Recovery,
    Retention,
    RunStore,
    StoredRun,
    StoreUnavailable,
    Usage,
)
from server.storage.location import locate, open_store
from server.storage.paging import PAGE_BYTES, pages
from server.storage.sqlite import SqliteRunStore

__all__ = [
    "PAGE_BYTES",
    "RUNNING",
    "Recovery",
    "Retention",
    "RunStore",
    "SqliteRunStore",
    "StoreUnavailable",
    "StoredRun",
    "Usage",
    "locate",
    "open_store",
    "pages",
]
