"""A dropped websocket, in Chromium against the real server: the page resumes the run from the
last event it holds, while paused and while backward streams in, with no gap or duplicate."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, run_id_of, set_code, stored_run

pytestmark = pytest.mark.browser

CHAIN = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x
for i in range(300):
    y = y * 1.001
y.sum().backward()
print(x.grad)
"""


def _kill_socket(page: Page) -> None:
    page.evaluate("() => window.__backscope.app.conn.ws?.close()")


def test_dropped_socket_resumes_without_gaps_or_duplicates(page: Page, server: str) -> None:
    page.goto("/")
    set_code(page, CHAIN)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    _kill_socket(page)
    for _ in range(3):
        page.get_by_test_id("step").click()
    current = page.get_by_test_id("node-list").locator('[aria-current="step"]')
    expect(current).to_have_count(1)
    page.get_by_test_id("continue").click()
    # and once more while the rest of backward streams in
    _kill_socket(page)
    status = page.get_by_test_id("status")
    ended = finished()
    expect(status).to_contain_text(ended)
    stored = stored_run(server, run_id_of(page))["events"]
    seqs = page.evaluate("() => window.__backscope.app.log.events.map(e => e.seq)")
    assert seqs == list(range(len(stored)))
    m = ended.search(status.inner_text())
    assert m and int(m.group(1)) == len(stored)
    expect(page.get_by_test_id("console")).to_contain_text("tensor([1.3497, 1.3497])")
