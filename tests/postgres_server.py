"""A throwaway PostgreSQL server for tests: Debian's `postgresql` binaries, a data directory in
a temporary folder, a unix socket there (no port to collide on), fsync off; stopped and removed
at the end. Run as root, the server runs as the `postgres` user (initdb refuses root).

Fixtures (import them into a conftest.py, or the test module, to use them):

>>> from tests.postgres_server import postgres, postgres_url  # noqa: F401 (fixtures)
>>> def test_store(postgres_url: str) -> None:     # a fresh empty database per test
...     store = PostgresRunStore(postgres_url)
>>> def test_many(postgres: PostgresServer) -> None:  # the server itself (one per session)
...     url = postgres.create_database()           # another fresh database, by URL

`postgres` is session-scoped: one server per pytest process, so each xdist worker has its
own. Without pytest:

>>> with running_postgres() as server:
...     url = server.create_database()             # postgresql://postgres@/db1?host=/tmp/...
...     tcp = server.tcp_url("db1")                # only with running_postgres(tcp=True)

The server dies with the thread that started it (PR_SET_PDEATHSIG), so a killed test run
leaves no server behind: start it from the main thread, or one that outlives its use.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

_PR_SET_PDEATHSIG = 1
# how long a server may take to start on a loaded machine before the fixture gives up
_START_S = 120.0


def bindir() -> Path:
    """The folder of Debian's PostgreSQL server binaries (initdb, postgres)."""
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        found = subprocess.run(
            ["pg_config", "--bindir"], capture_output=True, text=True, check=True
        ).stdout.strip()
        if (Path(found) / "initdb").exists():
            return Path(found)
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "initdb").exists():
            return candidate
    raise RuntimeError(
        "no PostgreSQL server binaries (initdb): install Debian's postgresql "
        "(tools/system-deps.sh does)"
    )


def database_name(url: str) -> str:
    """The database a URL names."""
    return str(conninfo_to_dict(url)["dbname"])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One running PostgreSQL server in `root` (see the module docstring)."""

    def __init__(
        self, root: Path, tcp: bool = False, settings: dict[str, str] | None = None
    ) -> None:
        self.root = root
        self.overrides = dict(settings or {})
        self.data = root / "data"
        self.port = _free_port() if tcp else 5432
        self.tcp = tcp
        self._names = itertools.count(1)
        self._process: subprocess.Popen[bytes] | None = None
        self._user = pwd.getpwnam("postgres") if os.getuid() == 0 else None

    # -- the URLs ---------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        """A URL of `database` through the unix socket."""
        return f"postgresql://postgres@/{database}?host={self.root}&port={self.port}"

    def tcp_url(self, database: str = "postgres") -> str:
        """A URL of `database` through 127.0.0.1 (only when started with tcp=True)."""
        if not self.tcp:
            raise RuntimeError("this server listens on its unix socket only (tcp=False)")
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str | None = None) -> str:
        """Make a new empty database; returns its URL."""
        name = name or f"db{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name_or_url: str) -> None:
        name = database_name(name_or_url) if "://" in name_or_url else name_or_url
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    # -- the process ------------------------------------------------------------------------
    def _demote(self) -> None:
        """In the child: become `postgres` (when root), and die with the starting thread."""
        if self._user is not None:
            os.setgroups([])
            os.setgid(self._user.pw_gid)
            os.setuid(self._user.pw_uid)
        # after the uid change, which clears it
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGINT, 0, 0, 0)

    def start(self) -> None:
        if self._user is not None:
            os.chown(self.root, self._user.pw_uid, self._user.pw_gid)
        os.chmod(self.root, 0o755)
        binaries = bindir()
        subprocess.run(
            [
                str(binaries / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "--no-sync",
                "--encoding=UTF8",
                "--no-locale",
            ],
            check=True,
            capture_output=True,
            preexec_fn=self._demote,
            cwd=self.root,
        )
        settings = {
            "listen_addresses": "127.0.0.1" if self.tcp else "",
            "port": str(self.port),
            "unix_socket_directories": str(self.root),
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "shared_buffers": "32MB",
            "max_connections": "200",
            **self.overrides,
        }
        args = [str(binaries / "postgres"), "-D", str(self.data)]
        for key, value in settings.items():
            args += ["-c", f"{key}={value}"]
        log = open(self.root / "server.log", "wb")  # noqa: SIM115 (the server's for its life)
        with log:
            self._process = subprocess.Popen(
                args,
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=self._demote,
                cwd=self.root,
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + _START_S
        assert self._process is not None
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"PostgreSQL did not start:\n{self.log()}")
            try:
                with psycopg.connect(self.url(), connect_timeout=5):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def log(self) -> str:
        path = self.root / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        """Fast shutdown (open sessions are ended), then the folder is removed."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


@contextlib.contextmanager
def running_postgres(
    tcp: bool = False, settings: dict[str, str] | None = None
) -> Iterator[PostgresServer]:
    """A PostgreSQL server for the duration of the block (see the module docstring);
    `settings` override the server's (e.g. {"fsync": "on", "synchronous_commit": "on"})."""
    root = Path(tempfile.mkdtemp(prefix="backscope-pg-"))
    server = PostgresServer(root, tcp=tcp, settings=settings)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One PostgreSQL server per pytest process (each xdist worker has its own)."""
    with running_postgres() as server:
        yield server


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> Iterator[str]:
    """A fresh empty database on the session's server, dropped after the test."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)
