"""Browser fixtures: the real server on a free port, Debian's Chromium driven by Playwright."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# How long a test waits for what the page should come to show (a run finishing, a pause, a
# redraw): a bound for a hung page, never a speed target, so it is generous for a slow, loaded
# machine. Tests pass no timeouts of their own.
WAIT_MS = 120_000
# The test server's clocks: far beyond any test run's duration on a slow machine, so no run
# meant to finish ends by a clock. A test about a clock starts its own server with `env`.
GENEROUS_CLOCKS = {"BACKSCOPE_WALL_SECONDS": "120", "BACKSCOPE_CPU_SECONDS": "60"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = WAIT_MS / 1000) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("server did not become healthy")


@contextmanager
def live_server(tmp: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """`backscope serve` on a free port with its database and log in `tmp`, generous clocks
    and `env` on top; yields its URL."""
    if not (ROOT / "frontend" / "dist" / "index.html").is_file():
        raise RuntimeError("frontend/dist is missing: run `make frontend` first")
    port = _free_port()
    exe = Path(sys.executable).with_name("backscope")
    cmd = [str(exe), "serve", "--port", str(port), "--db", str(tmp / "runs.sqlite")]
    with (tmp / "server.log").open("wb") as log:
        environ = os.environ | GENEROUS_CLOCKS | (env or {})
        proc = subprocess.Popen(cmd, cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server with a throwaway database; yields its base URL."""
    with live_server(tmp_path_factory.mktemp("server")) as url:
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def new_context(browser: Any, server: str, width: int = 1600, height: int = 900) -> Any:
    """A browser context on `server` at this window size, waiting up to WAIT_MS."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    ctx.set_default_timeout(WAIT_MS)
    return ctx


@pytest.fixture
def page(browser: object, server: str) -> Iterator[object]:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    ctx = new_context(browser, server)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"uncaught page errors: {errors}"


def shot(page: object, name: str) -> Path:
    """Keep a screenshot of a main state under test-artifacts/ (git-ignored)."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


@pytest.fixture(scope="session", autouse=True)
def _generous_expect_timeout() -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)


def stored_run(server: str, run_id: str) -> dict[str, Any]:
    """A stored run as the REST API serves it."""
    with urllib.request.urlopen(f"{server}/api/runs/{run_id}", timeout=10) as r:
        data: dict[str, Any] = json.load(r)
    return data


def set_code(page: Any, code: str) -> None:
    """Replace the editor's text as a person would (select all, type)."""
    page.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)


def press_run(page: Any, pause: bool = False) -> None:
    """Press Run, with the pause-in-backward toggle set as asked."""
    page.get_by_test_id("pause-backward").set_checked(pause)
    page.get_by_test_id("run").click()
