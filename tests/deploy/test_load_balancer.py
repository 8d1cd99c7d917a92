"""The cluster's load balancer at work: Debian's nginx running deploy/nginx/backscope.conf in
front of two real app replicas. A browser's websocket runs a seed example through it, and every
later request with the browser's owner cookie reaches the same replica, while different
browsers spread over both.

The replicas here keep separate SQLite files (a run is found only on the replica that ran it),
which is what makes the routing visible. Only what is the deployment's changes from the file:
the port nginx listens on and the replicas' port (free ones here); `app` resolves to both
replicas through an /etc/hosts that bubblewrap binds in, as compose's network would answer."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from server.app import create_app
from server.cli import UVICORN_WS
from server.settings import Settings
from server.trust.tokens import COOKIE
from tests import web
from tests.deploy import manifests as m
from tests.server.live import Client, assert_dense, connect, owner_cookie

REPLICAS = ("127.0.0.2", "127.0.0.3")


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _app(db: Path) -> Any:
    return create_app(Settings(db_path=db, trusted_proxies=["127.0.0.1"]))


@contextmanager
def _replica(app: Any, host: str, port: int) -> Iterator[None]:
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", **UVICORN_WS)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert time.monotonic() < deadline, "replica did not start"
        time.sleep(0.05)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextmanager
def _nginx(tmp: Path, app_port: int) -> Iterator[str]:
    """nginx with the cluster's config in front of `app:app_port`; yields its address."""
    port = _free_port("127.0.0.1")
    conf = m.NGINX_CONF.read_text()
    assert conf.count("server app:8000 ") == 1 and conf.count("listen 80;") == 1
    conf = conf.replace("server app:8000 ", f"server app:{app_port} ")
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{port};")
    (tmp / "backscope.conf").write_text(conf)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the temp dir below
    (tmp / "nginx.conf").write_text(
        f"{user}pid {tmp}/nginx.pid;\nerror_log stderr;\nevents {{}}\n"
        f"http {{\n  access_log off;\n  include {tmp}/backscope.conf;\n}}\n"
    )
    (tmp / "hosts").write_text("127.0.0.1 localhost\n" + "".join(f"{a} app\n" for a in REPLICAS))
    nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
    bwrap = shutil.which("bwrap")
    assert nginx and bwrap, "Debian's nginx and bubblewrap are needed (tools/system-deps.sh)"
    command = [bwrap, "--die-with-parent", "--unshare-pid", "--dev-bind", "/", "/"]
    command += ["--ro-bind", str(tmp / "hosts"), "/etc/hosts"]
    command += [nginx, "-e", "stderr", "-p", str(tmp), "-c", str(tmp / "nginx.conf")]
    command += ["-g", "daemon off;"]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()[1]
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not listen"
                time.sleep(0.05)
        yield f"127.0.0.1:{port}"
    finally:
        proc.kill()  # (bwrap's pid namespace ends with it, and nginx in it)
        proc.communicate(timeout=30)


@pytest.fixture(scope="module")
def balancer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("lb")
    app_port = _free_port(REPLICAS[0])
    with ExitStack() as stack:
        for i, host in enumerate(REPLICAS):
            stack.enter_context(_replica(_app(tmp / f"replica{i}.sqlite3"), host, app_port))
        yield stack.enter_context(_nginx(tmp, app_port))


def _run_through(base: str, cookie: str) -> list[dict[str, object]]:
    async def main() -> list[dict[str, object]]:
        examples = web.get(f"http://{base}/api/examples").json()
        async with await connect(base, cookie=cookie) as ws:
            client = Client(ws)
            await client.send({"type": "run", "code": examples[0]["code"]})
            await client.until("run_finished", timeout=180)
            return client.events

    return asyncio.run(main())


def _found(base: str, run_id: str, cookie: str) -> bool:
    response = web.get(f"http://{base}/api/runs/{run_id}", cookies={COOKIE: cookie})
    assert response.status_code in (200, 404), response.text
    return response.status_code == 200


def test_websocket_runs_through_the_balancer_and_stays_on_its_replica(balancer: str) -> None:
    cookie = owner_cookie(balancer)
    events = _run_through(balancer, cookie)
    assert_dense(events)
    assert events[-1]["status"] == "ok"
    run_id = str(events[0]["run_id"])
    deadline = time.monotonic() + 30  # stored as the run ends
    while not _found(balancer, run_id, cookie):
        assert time.monotonic() < deadline, "the run's replica never served it"
        time.sleep(0.2)
    # the same browser: every request goes to the replica that ran it
    assert all(_found(balancer, run_id, cookie) for _ in range(12))
    # other browsers hash over both replicas: some reach it, some the other (fixed cookie
    # values: the hash puts each on one replica, the same on every run of the test)
    seen = {_found(balancer, run_id, f"browser-{i}") for i in range(32)}
    assert seen == {True, False}
