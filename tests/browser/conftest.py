"""Browser fixtures: the real server on a free port, Debian's Chromium driven by Playwright."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
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


# each package server's log, by URL (shown when a test on it fails)
SERVER_LOGS: dict[str, Path] = {}


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server with a throwaway database; yields its base URL."""
    tmp = tmp_path_factory.mktemp("server")
    with live_server(tmp) as url:
        SERVER_LOGS[url] = tmp / "server.log"
        yield url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test (the page fixture looks at it)."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


_PAGE_STATE_JS = """() => { const a = window.__backscope && window.__backscope.app;
    if (!a) return null;
    const s = a.log.state();
    return { status: s.status, error: s.error, halted: s.halted,
             console: s.console.slice(-10), events: a.log.events.slice(-6) }; }"""


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


@pytest.fixture(scope="package")
def context(browser: object, server: str) -> Iterator[object]:
    """One browser context for the `page` fixture's tests: a context costs about as much CPU
    again as the page in it (measured here: 2.2 CPU-s for a new context and page with the app
    loaded, 1.1 for a new page in an open one), and the suite is CPU-bound."""
    ctx = new_context(browser, server)
    yield ctx
    ctx.close()


def fresh_page(ctx: Any, width: int = 1600, height: int = 900) -> Any:
    """A new page in `ctx` at this window size, as on a first visit: what an earlier test stored
    for the origin is gone (the page keeps only the legend's state, in localStorage; the
    context has no cookies). It has not loaded the app yet."""
    ctx.clear_cookies()
    pg = ctx.new_page()
    pg.set_viewport_size({"width": width, "height": height})
    pg.goto("/healthz")
    pg.evaluate("() => localStorage.clear()")
    return pg


@pytest.fixture
def page(context: object, server: str, request: pytest.FixtureRequest) -> Iterator[object]:
    from playwright.sync_api import BrowserContext

    assert isinstance(context, BrowserContext)
    ctx = context
    pg = fresh_page(ctx)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        # what the page held and the server said: a failure on a loaded machine is rarely
        # reproducible, so its report carries what is needed to read it
        try:
            print("page state:", json.dumps(pg.evaluate(_PAGE_STATE_JS), default=str)[:4000])
        except Exception as e:  # the page itself may be what failed
            print("page state unreadable:", e)
        log = SERVER_LOGS.get(server)
        if log is not None and log.is_file():
            lines = [x for x in log.read_text(errors="replace").splitlines() if "HTTP/1.1" not in x]
            print("server log (last lines, requests left out):", *lines[-40:], sep="\n")
    for opened in ctx.pages:  # this page and any the test opened beside it
        opened.close()
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


# -- what a person does on the page, and what the tests read of it -----------------------------

# how a run can end (the status line's last word once it has)
RUN_ENDS = ("ok", "error", "timeout", "limit", "killed", "stopped")


def finished(*statuses: str) -> re.Pattern[str]:
    """The status line of a run that ended with one of `statuses` (any end when none is given),
    the cursor at its last event: `12 events · cursor 12/12 · ok` (group 1 is the count)."""
    return re.compile(rf"(\d+) events · cursor \1/\1 · ({'|'.join(statuses or RUN_ENDS)})")


def run_id_of(page: Any) -> str:
    """The id of the run the page shows (its address says `?run=ID`)."""
    rid = page.evaluate("() => new URLSearchParams(location.search).get('run')")
    assert isinstance(rid, str), f"the page names no run: {page.url}"
    return rid


def run_anew(page: Any, previous: str | None, pause: bool = False) -> str:
    """Press Run while the page shows the run `previous` (None: no run yet) and wait until the
    new run has started and a frame has been drawn since; returns the new run's id.

    Until then the status line may still show the previous run's end: a run of the same code
    ends with the same status, so waiting for that text alone could pass on the old run. The
    page asks for its frame when it takes the new run's first events, before the one waited
    for here, so that frame draws the new run."""
    press_run(page, pause)
    page.wait_for_function(
        """prev => { const r = new URLSearchParams(location.search).get('run');
                    return r !== null && r !== prev; }""",
        arg=previous,
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(null)))")
    return run_id_of(page)


def examples(server: str) -> list[dict[str, Any]]:
    """The gallery the Examples menu lists."""
    with urllib.request.urlopen(server + "/api/examples", timeout=10) as r:
        data: list[dict[str, Any]] = json.load(r)
    return data


def example_with(server: str, text: str) -> str:
    """The id of the gallery example whose code holds `text`."""
    return str(next(e["id"] for e in examples(server) if text in e["code"]))


def entry(page: Any, name: str) -> Any:
    """The node list's rows named `name` (a tensor's name, else its node's)."""
    return page.get_by_test_id("node-list").locator(f'[data-node-name="{name}"]')


def listed_names(page: Any) -> set[str]:
    """Every name the node list shows."""
    rows = page.get_by_test_id("node-list").locator("[data-node-name]")
    return set(rows.evaluate_all("els => els.map(e => e.dataset.nodeName)"))


_CURSOR_JS = """() => /cursor (\\d+)\\//.exec(
    document.querySelector('[data-testid=status]').textContent)?.[1] ?? null"""


def move_cursor(page: Any, act: Callable[[], None]) -> None:
    """Do `act` (a step, a key) and wait until the page shows the cursor somewhere else.

    A step in a paused run waits for the server's events: the status line changes with the first
    batch, and the cursor moves when the step's stop arrives. The status, the node list, the
    timeline label and the inspector are drawn in one frame, so once the status shows the new
    cursor each of them shows the new step."""
    before = page.evaluate(_CURSOR_JS)
    act()
    page.wait_for_function(f"prev => ({_CURSOR_JS})() !== prev", arg=before)


def step_until(page: Any, text: str, key: str = "ArrowRight", limit: int = 40) -> None:
    """Press `key` until the timeline label shows `text` (each press waits for its step)."""
    label = page.locator("#tl-label")
    for _ in range(limit):
        if text in label.inner_text():
            return
        move_cursor(page, lambda: page.keyboard.press(key))
    raise AssertionError(f"no step shows {text!r}")


# -- where things are drawn (from the page's state: `__backscope.geometry()`, not pixels) -------


def drawn_geometry(page: Any) -> dict[str, Any]:
    """Wait until every vertex is placed and two frames drawn since, then read where things
    are, in screen pixels."""
    try:
        page.wait_for_function(
            """() => { const a = window.__backscope.app;
                       return a.pos.size > 0 && a.pos.size === a.log.state().vertices.size; }""",
        )
    except Exception as e:
        raise AssertionError(f"the layout never caught up: {layout_state(page)}") from e
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    return geo


def layout_state(page: Any) -> dict[str, Any]:
    """What the page's layout holds against the run's vertices (for a failure's message)."""
    state: dict[str, Any] = page.evaluate(
        """() => { const a = window.__backscope.app; const s = a.log.state();
                   const pos = [...a.pos.keys()], vs = [...s.vertices.keys()];
                   return { placed: pos.length, vertices: vs.length, status: s.status,
                            seen: a.place.seen, sent: a.layout.sent, failed: a.layout.failed,
                            following: a.log.following, cursor: a.log.cursor, events: a.log.length,
                            extra: pos.filter(k => !s.vertices.has(k)).slice(0, 20),
                            missing: vs.filter(k => !a.pos.has(k)).slice(0, 20) }; }"""
    )
    return state


def meets(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two screen rectangles overlap."""
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def inside(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether rectangle `a` lies within `b` (half a pixel of rounding allowed)."""
    eps = 0.5
    return (
        a["x"] >= b["x"] - eps
        and a["y"] >= b["y"] - eps
        and a["x"] + a["w"] <= b["x"] + b["w"] + eps
        and a["y"] + a["h"] <= b["y"] + b["h"] + eps
    )


def assert_clear_view(geo: dict[str, Any]) -> None:
    """Every vertex is on the canvas, not under an overlay, and shows its whole label."""
    canvas = geo["canvas"]
    for v in geo["vertices"]:
        assert inside(v, canvas), f"{v['title']} is off the canvas"
        assert v["fits"], f"{v['title']} is cut off"
        for name, rect in geo["overlays"].items():
            if rect is not None:
                assert not meets(v, rect), f"{name} covers {v['title']}"


# -- the server's frames, split and held back (a batch boundary forced, not waited for) ---------


class SplitSocket:
    """The page's websocket routed through the test to the real server, so a test can force
    where the server's frames end: after `hold_after(types)`, the next event of one of `types`
    ends the frame the page gets, and everything the server sends after it is held back until
    `release()`. Commands go to the server untouched."""

    def __init__(self, page: Any) -> None:
        self._ws: Any = None
        self._cut: frozenset[str] = frozenset()
        self._holding = False
        self.held: list[str] = []
        page.route_web_socket("**/ws", self._route)

    def _route(self, ws: Any) -> None:
        self._ws = ws
        server = ws.connect_to_server()
        ws.on_message(server.send)
        server.on_message(self._from_server)

    def _from_server(self, message: str | bytes) -> None:
        text = message if isinstance(message, str) else message.decode()
        if self._holding:
            self.held.append(text)
            return
        batch = json.loads(text) if self._cut else None
        if isinstance(batch, list):
            at = next((i for i, e in enumerate(batch) if e.get("type") in self._cut), None)
            if at is not None:
                self._cut = frozenset()
                self._holding = True
                self._ws.send(json.dumps(batch[: at + 1]))
                if at < len(batch) - 1:
                    self.held.append(json.dumps(batch[at + 1 :]))
                return
        self._ws.send(text)

    def hold_after(self, types: set[str]) -> None:
        self._cut = frozenset(types)

    def release(self) -> None:
        """Send the held frames to the page, in order, and stop holding."""
        # a frame the server sends meanwhile queues behind the held ones (still holding until
        # the last is sent)
        while self.held:
            self._ws.send(self.held[0])
            self.held.pop(0)
        self._holding = False
