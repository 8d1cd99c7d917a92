"""`backscope run --torch FILE.py` as a user starts it: a process serving the page for its own
run; helpers to find the run and speak the page's protocol to it."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from websockets.sync.client import ClientConnection, connect

from tests.torch.harness import ROOT

URL = re.compile(r"backscope: (http://[^\s]+)\?run=([0-9a-f]+)")


@contextmanager
def run_torch(tmp: Path, code: str, *flags: str) -> Iterator[tuple[str, str, Path]]:
    """Start `backscope run --torch` on `code`; yields (base url, run id, log file)."""
    src = tmp / "script.py"
    src.write_text(code, encoding="utf-8")
    log = tmp / "run.log"
    exe = Path(sys.executable).with_name("backscope")
    env_db = {"BACKSCOPE_DB_PATH": str(tmp / "runs.sqlite3")}
    import os

    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(exe), "run", "--torch", str(src), "--no-open", *flags],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **env_db},
        )
        try:
            # The page's address comes once the script's process has imported torch: on a
            # loaded machine, with torch's modules compiled on their first import, that can
            # take minutes. The bound is for a hung process, not a speed target.
            found = None
            deadline = time.monotonic() + 600
            while found is None and time.monotonic() < deadline and proc.poll() is None:
                found = URL.search(log.read_text(encoding="utf-8", errors="replace"))
                if found is None:
                    time.sleep(0.05)
            if found is None:
                raise AssertionError(f"no page: {log.read_text(errors='replace')[-2000:]}")
            yield found.group(1), found.group(2), log
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def open_page(base: str, run_id: str) -> Iterator[Page]:
    """The page's websocket on the server at `base`, following run `run_id`."""
    ws_url = base.replace("http://", "ws://").rstrip("/") + "/ws"
    with connect(ws_url, open_timeout=60, max_size=None) as ws:
        yield Page(ws, run_id)


class Page:
    """The page's side of the websocket, reduced to what the tests need."""

    def __init__(self, ws: ClientConnection, run_id: str) -> None:
        self.ws = ws
        self.run_id = run_id
        self.events: list[dict[str, Any]] = []
        self.read = 0  # events before this index have been looked at by `until`
        self.send({"type": "resume", "run_id": run_id, "after_seq": -1})

    def send(self, cmd: dict[str, Any]) -> None:
        self.ws.send(orjson.dumps(cmd).decode())

    def until(self, *want: str, timeout: float = 120) -> dict[str, Any]:
        """The next event (after the last one `until` returned) of a type in `want`, reading
        from the socket as needed."""
        deadline = time.monotonic() + timeout
        while True:
            while self.read < len(self.events):
                e = self.events[self.read]
                self.read += 1
                if e["type"] in want:
                    return e
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {want}: {[e['type'] for e in self.events[-20:]]}")
            self.events.extend(orjson.loads(self.ws.recv(timeout=left)))
