"""The target sizes load and show in headless Chromium: 5k-vertex layouts, a 10k-node run, a
100k-event run. How fast is bench/bench_frontend.py's to report (never a timed assertion)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import shot

pytestmark = pytest.mark.browser


def test_the_worker_places_every_vertex_of_5k_layouts(page) -> None:
    page.goto("/")
    for scoped in (False, True):
        r = page.evaluate("([n, s]) => window.__backscope.bench.layout(n, s)", [5000, scoped])
        assert r["placed"] == 5000
    r = page.evaluate("() => window.__backscope.bench.append(5000, 100)")
    assert r["placed"] == 100


def test_a_10k_node_run_is_drawn_whole(page) -> None:
    page.goto("/")
    r = page.evaluate("n => window.__backscope.bench.firstFrame(n)", 10000)
    assert r["vertices"] >= 10000
    # a frame with every vertex placed was drawn (the measurement gives up after 10 s)
    assert r["firstFrameMs"] >= 0
    assert page.evaluate("() => window.__backscope.app.pos.size") >= 10000
    page.evaluate("() => window.__backscope.bench.draw()")
    shot(page, "scale-10k-nodes")


def test_a_100k_event_run_can_be_seeked_anywhere(page) -> None:
    page.goto("/")
    r = page.evaluate("n => window.__backscope.bench.seek(n)", 30000)
    assert r["events"] >= 100_000
    # the page shows the last seek's cursor in the status line
    app = "window.__backscope.app"
    cursor = page.evaluate(f"() => {app}.log.cursor")
    assert 0 <= cursor < r["events"]
    status = page.get_by_test_id("status").inner_text()
    assert f"cursor {cursor + 1}/{r['events']}" in status
