"""Where runs are stored: `BACKSCOPE_DATABASE_URL` (`sqlite:///path` or `postgresql://…`, or
none: an SQLite file in the data dir), and opening the store there.

>>> store, recovery = open_store(locate("postgresql://backscope@db/backscope", default))
>>> store, recovery = open_store(Path("runs.sqlite3"))   # a corrupt file is moved aside
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from server.storage.interface import Recovery, RunStore, StoreUnavailable
from server.storage.recovery import open_sqlite

_log = logging.getLogger(__name__)
_POSTGRES = ("postgresql://", "postgres://")
# how long opening a PostgreSQL store waits for the server before it gives up
CONNECT_TIMEOUT_S = 10.0


def locate(url: str | None, default: Path) -> Path | str:
    """An SQLite file's path, or a PostgreSQL URL (refusing any other kind of URL)."""
    if url is None or not url.strip():
        return default
    url = url.strip()
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///") :])
    if url.startswith(_POSTGRES):
        return url
    raise StoreUnavailable(
        f"unsupported database URL {redact(url)!r}: runs are stored in SQLite "
        "(sqlite:///path/to/file) or PostgreSQL (postgresql://user:password@host/database)"
    )


def redact(url: str) -> str:
    """The URL without its password (for messages and logs)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<an unreadable URL>"
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def open_store(where: Path | str, check_first: bool = True) -> tuple[RunStore, Recovery]:
    """The store at `where` (see `locate`): PostgreSQL, migrated to this server's version; or
    the SQLite file, after moving a file it cannot use out of the way (`check_first`: a
    quick_check of every page first). Raises StoreUnavailable with a readable reason."""
    if isinstance(where, Path):
        return open_sqlite(where, check_first)
    import psycopg

    from server.storage.postgres import PostgresRunStore

    try:
        store = PostgresRunStore(where, connect_timeout_s=CONNECT_TIMEOUT_S)
    except psycopg.Error as exc:
        reason = str(exc).strip() or type(exc).__name__
        raise StoreUnavailable(
            f"could not open the run database {redact(where)}: {reason}"
        ) from exc
    if store.migrated:
        _log.info("run database %s migrated to versions %s", redact(where), store.migrated)
    return store, Recovery()
