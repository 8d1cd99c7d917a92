"""A run stopped, in Chromium against a real server: by its time limit (a short clock) or by
the page's Stop button, the graph built before the stop is kept and the banner names the line
the run was executing (and the editor marks that line, which is really there)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import (
    finished,
    live_server,
    new_context,
    press_run,
    set_code,
    shot,
)

pytestmark = pytest.mark.browser

SPIN = """import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
while True:
    pass
"""


@pytest.fixture(scope="module")
def short_clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # the CPU clock is the short one: a 3 s wall clock ran out on a loaded machine before the
    # worker had even imported (a CI run: timeout, 0 nodes), so nothing was built to keep. CPU
    # time is not spent waiting for a core, so the run always reaches its loop; the wall clock
    # (tests/trace/test_wire_validates.py covers it alone) only backs it up
    env = {"BACKSCOPE_WALL_SECONDS": "120", "BACKSCOPE_CPU_SECONDS": "2"}
    with live_server(Path(tmp_path_factory.mktemp("short-clock")), env=env) as url:
        yield url


def test_a_timed_out_run_keeps_its_graph_and_names_its_line(
    browser: Browser, short_clock_server: str
) -> None:
    ctx = new_context(browser, short_clock_server)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto("/")
        set_code(page, SPIN)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text("timeout")
        # the graph built before the loop: y's MulBackward0 and x (today: 0 nodes)
        nodes = page.get_by_test_id("node-list")
        expect(nodes.locator('[data-node-name="MulBackward0"]')).to_have_count(1)
        expect(nodes.locator('[data-node-name="x"]')).to_have_count(1)
        banner = page.get_by_test_id("error")
        expect(banner).to_be_visible()
        expect(page.get_by_test_id("error-where")).to_have_text("stopped while running line 4")
        expect(banner).not_to_contain_text("undefined")
        expect(banner).to_contain_text("The graph built before the run was stopped is kept")
        # the red line is the loop's line, and it is in the editor
        expect(page.locator(".cm-line.cm-line-error")).to_have_count(1)
        expect(page.locator(".cm-line.cm-line-error")).to_have_text("while True:")
        shot(page, "stopped-run")
        assert not errors, errors[:3]
    finally:
        ctx.close()


STARTED_SPIN = """import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
print('started', flush=True)
while True:
    pass
"""


def test_stop_ends_a_runaway_run_and_keeps_its_graph(page: Page) -> None:
    """The page has a Stop control (before: none; a runaway run ran to its time limit, here
    120 s): the run ends as stopped, keeps its graph and names the line it was executing."""
    page.goto("/")
    set_code(page, STARTED_SPIN)
    stop = page.get_by_test_id("stop")
    expect(stop).to_be_disabled()
    press_run(page)
    expect(page.get_by_test_id("console")).to_contain_text("started")
    expect(stop).to_be_enabled()
    stop.click()
    expect(page.get_by_test_id("status")).to_contain_text(finished("killed", "stopped"))
    expect(stop).to_be_disabled()
    nodes = page.get_by_test_id("node-list")
    expect(nodes.locator('[data-node-name="MulBackward0"]')).to_have_count(1)
    # the stop may land while print() is still flushing (line 4) or in the loop (5, 6)
    expect(page.get_by_test_id("error-where")).to_have_text(
        re.compile(r"stopped while running line [456]")
    )
    # said in words (before: "killed: killed")
    expect(page.get_by_test_id("error")).to_contain_text(
        "killed: stopped at its owner's request (the Stop button)"
    )
    shot(page, "stopped-by-user")
