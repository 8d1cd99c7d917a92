"""A backscope cluster on one machine, without containers: a throwaway PostgreSQL, app replicas
(`backscope serve` with BACKSCOPE_RUNNERS=queue) and runner pools (`backscope runner`), each
its own process. Used by deploy/replicas-check.sh, tests/server/cluster/ and
bench/bench_cluster.py.

>>> with Cluster() as cluster:
...     a, b = cluster.replica("a"), cluster.replica("b")   # base URLs, 127.0.0.1:PORT
...     cluster.runner("r1", slots=2)
...     cluster.kill("a")                                    # SIGKILL, as a crash
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.postgres_server import PostgresServer, running_postgres  # noqa: E402

START_S = 120.0  # how long a process may take to come up on a loaded machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """PostgreSQL, replicas and runners as child processes; all stopped at the end."""

    def __init__(self, logs: Path | None = None, **settings: str) -> None:
        self._stack = ExitStack()
        self.postgres: PostgresServer | None = None
        self.url = ""
        self.logs = logs
        self.settings = settings  # extra BACKSCOPE_* variables (without the prefix)
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.bases: dict[str, str] = {}
        self.secret = secrets.token_hex(32)

    def __enter__(self) -> Cluster:
        self.postgres = self._stack.enter_context(running_postgres())
        self.url = self.postgres.create_database("backscope")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        for name in list(self.procs):
            self.stop(name)
        self._stack.close()

    def env(self, **more: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("BACKSCOPE_")}
        env.update(
            BACKSCOPE_DATABASE_URL=self.url,
            BACKSCOPE_RUNNERS="queue",
            # replicas must share the key that signs owner cookies: a client is the same
            # owner through any of them
            BACKSCOPE_SECRET_KEY=self.secret,
            PYTHONPATH=str(ROOT),
        )
        for key, value in {**self.settings, **more}.items():
            env[f"BACKSCOPE_{key.upper()}"] = value
        return env

    def _spawn(self, name: str, args: list[str], env: dict[str, str]) -> None:
        out: Any = subprocess.DEVNULL
        if self.logs is not None:
            self.logs.mkdir(parents=True, exist_ok=True)
            out = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 (the child's)
        try:
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "server.cli", *args],
                env=env,
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        finally:
            if out is not subprocess.DEVNULL:
                out.close()

    def replica(self, name: str, **settings: str) -> str:
        """Start an app replica; returns its base address once /healthz answers."""
        port = free_port()
        self._spawn(name, ["serve", "--port", str(port)], self.env(**settings))
        base = f"127.0.0.1:{port}"
        self.bases[name] = base
        deadline = time.monotonic() + START_S
        while True:
            if self.procs[name].poll() is not None:
                raise RuntimeError(f"replica {name} exited with {self.procs[name].returncode}")
            try:
                if httpx.get(f"http://{base}/healthz", timeout=5).status_code == 200:
                    return base
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"replica {name} did not answer")
            time.sleep(0.1)

    def runner(self, name: str, slots: int = 2, **settings: str) -> int:
        """Start a runner pool; returns its pid once it has said it is alive (heartbeat)."""
        self._spawn(name, ["runner", "--slots", str(slots)], self.env(**settings))
        pid = self.procs[name].pid
        deadline = time.monotonic() + START_S
        while not any(f":{pid}:" in r for r in self.runners()):
            if self.procs[name].poll() is not None:
                raise RuntimeError(f"runner {name} exited with {self.procs[name].returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"runner {name} did not start")
            time.sleep(0.1)
        return pid

    def runners(self) -> list[str]:
        import psycopg

        with psycopg.connect(self.url) as db:
            exists = db.execute("SELECT to_regclass('runners')").fetchone()
            if exists is None or exists[0] is None:
                return []
            return [r[0] for r in db.execute("SELECT id FROM runners").fetchall()]

    def kill(self, name: str) -> None:
        """SIGKILL: a crash (nothing of the process gets to clean up)."""
        proc = self.procs.pop(name)
        proc.kill()
        proc.wait()

    def stop(self, name: str, timeout: float = 60.0) -> int:
        """SIGTERM, as a scheduler stops a process; its exit status."""
        proc = self.procs.pop(name)
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return proc.returncode
