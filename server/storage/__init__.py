"""Stored runs: code, status, owner and the complete event log, in an SQLite file.

One small interface (`RunStore`) so another database can stand behind it later. A run is
stored while it runs (`begin`, then `append` every few seconds, then `finish`), so a crash
loses at most the last few seconds; saving costs what the run is, whatever the store holds;
`evict` keeps the store under its caps (see `Retention`).

>>> store, recovery = open_store(Path("runs.sqlite3"))   # a corrupt file is moved aside
>>> store.begin(StoredRun(run_id, code, "running", {}, time.time(), 0.0, 0, owner="ab12"))
>>> store.append(run_id, log.chunks[:10]); store.finish(final, log.chunks[10:])
"""

from server.storage.interface import RUNNING, Recovery, Retention, RunStore, StoredRun, Usage
from server.storage.paging import PAGE_BYTES, pages
from server.storage.recovery import open_store
from server.storage.sqlite import SqliteRunStore

__all__ = [
    "PAGE_BYTES",
    "RUNNING",
    "Recovery",
    "Retention",
    "RunStore",
    "SqliteRunStore",
    "StoredRun",
    "Usage",
    "open_store",
    "pages",
]
