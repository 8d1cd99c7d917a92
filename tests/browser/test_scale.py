"""The target sizes load and show in headless Chromium: 5k-vertex layouts, a 10k-node run, a
100k-event run. How fast is bench/bench_frontend.py's to report (never a timed assertion)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser


def test_the_worker_places_every_vertex_of_5k_layouts(page: Page) -> None:
    page.goto("/")
    for scoped in (False, True):
        r = page.evaluate("([n, s]) => window.__backscope.bench.layout(n, s)", [5000, scoped])
        assert r["placed"] == 5000
    r = page.evaluate("() => window.__backscope.bench.append(5000, 100)")
    assert r["placed"] == 100


def test_a_10k_node_run_is_drawn_whole(page: Page) -> None:
    page.goto("/")
    r = page.evaluate("n => window.__backscope.bench.firstFrame(n)", 10000)
    assert r["vertices"] >= 10000
    # a frame with every vertex placed is drawn: the measurement stops waiting after 10 s (a
    # slow machine may need longer), so wait for the frame itself here
    page.wait_for_function("() => window.__backscope.app.metrics.firstFullFrameAt > 0")
    assert page.evaluate("() => window.__backscope.app.pos.size") >= 10000
    page.evaluate("() => window.__backscope.bench.draw()")
    shot(page, "scale-10k-nodes")


def test_a_100k_event_run_can_be_seeked_anywhere(page: Page) -> None:
    page.goto("/")
    r = page.evaluate("n => window.__backscope.bench.seek(n)", 30000)
    assert r["events"] >= 100_000
    # the page shows the last seek's cursor in the status line
    app = "window.__backscope.app"
    cursor = page.evaluate(f"() => {app}.log.cursor")
    assert 0 <= cursor < r["events"]
    expect(page.get_by_test_id("status")).to_contain_text(f"cursor {cursor + 1}/{r['events']}")
