"""The browser app's speed targets, measured in Debian's headless Chromium against the server.

Starts `backscope serve` (throwaway database) and Chromium the way tests/browser/conftest.py
does, runs the page's own measurements (`window.__backscope.bench`, frontend/src/bench/run.ts)
on synthetic runs of the target sizes, and prints each figure next to its target. Needs a built
frontend (`make frontend`) and Playwright's Python package (no browser download: /usr/bin/chromium).

    .venv/bin/python bench/bench_frontend.py
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, live_server, press_run, set_code  # noqa: E402
from tests.browser.test_graph_view import LOOP  # noqa: E402

# (label, figure, unit, target, True when the figure must be at most the target)
Row = tuple[str, float, str, float, bool]


@contextmanager
def serve() -> Iterator[str]:
    """The real server with a throwaway database; yields its base URL."""
    with tempfile.TemporaryDirectory() as tmp, live_server(Path(tmp)) as url:
        yield url


def run_to_frame(page: Any, code: str) -> float:
    """Milliseconds from pressing Run to the first full frame after the run's last event."""
    page.goto("/")
    set_code(page, code)
    t0 = page.evaluate("performance.now()")
    press_run(page)
    done = "() => / · ok/.test(document.querySelector('[data-testid=status]').textContent)"
    page.wait_for_function(done, timeout=120_000)
    page.wait_for_function("() => window.__backscope.app.metrics.firstFullFrameAt > 0")
    drawn: float = page.evaluate("window.__backscope.app.metrics.firstFullFrameAt") - t0
    return drawn


def measure(page: Any) -> list[Row]:
    """Each figure: the best of three where a run is cheap, one run where it loads a page."""
    bench = "window.__backscope.bench"
    layout = min(page.evaluate(f"n => {bench}.layout(n)", 5000)["ms"] for _ in range(3))
    scoped = min(page.evaluate(f"n => {bench}.layout(n, true)", 5000)["ms"] for _ in range(3))
    append = min(page.evaluate(f"() => {bench}.append(5000, 100)")["appendMs"] for _ in range(3))
    first = page.evaluate(f"n => {bench}.firstFrame(n)", 10000)
    draw = page.evaluate(f"() => {bench}.draw()")
    seek = page.evaluate(f"n => {bench}.seek(n)", 30000)
    loop = run_to_frame(page, LOOP)
    n_ev = f"{seek['events'] // 1000}k"
    return [
        ("layout 5k vertices (worker)", layout, "ms", 50, True),
        ("layout 5k vertices in 1k module calls (worker)", scoped, "ms", 50, True),
        ("append 100 vertices to a 5k layout", append, "ms", 5, True),
        (
            f"first full frame, {first['vertices']} vertices",
            first["firstFrameMs"],
            "ms",
            1000,
            True,
        ),
        ("pan frame interval, fitted 10k graph", draw["fittedFrameIntervalMs"], "ms", 33, True),
        ("pan frame interval, zoomed in", draw["zoomedFrameIntervalMs"], "ms", 33, True),
        (f"store apply rate, {n_ev}-event run", seek["eventsPerSec"], "events/s", 100_000, False),
        (f"worst state at a seek, {n_ev}-event run", seek["worstStateMs"], "ms", 100, True),
        (f"median seek to frame, {n_ev}-event run", seek["medianSeekToFrameMs"], "ms", 250, True),
        ("training-loop snippet: Run to graph drawn", loop, "ms", 10_000, True),
    ]


def report(rows: list[Row]) -> int:
    """Print each figure with its target; the number of targets missed."""
    missed = 0
    for label, value, unit, target, at_most in rows:
        ok = value <= target if at_most else value >= target
        missed += not ok
        sign = "<=" if at_most else ">="
        figure = f"{value:,.0f}" if value >= 1000 else f"{value:.2f}"
        verdict = "ok" if ok else "MISSED"
        print(f"{label:48s} {figure:>10s} {unit:9s} (target {sign} {target:,}) {verdict}")
    return missed


def main() -> None:
    from playwright.sync_api import sync_playwright

    with serve() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900}, base_url=url)
            page.goto("/")
            rows = measure(page)
        finally:
            browser.close()
    print("browser app (headless Chromium, software canvas, shared cores)")
    report(rows)


if __name__ == "__main__":
    main()
