"""Values of finished runs, in Chromium against the real server: a tensor over the inline limit
(a 16×16 weight and its gradient) shows its heatmap after the run has finished, and so does a
share link opened in a fresh page (the bounded full values stored with the run)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import finished, new_context, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

WEIGHT = """import torch
w = torch.linspace(-1, 1, 256).reshape(16, 16).requires_grad_()
(w * w).sum().backward()
print(w[3, 5].item(), w.grad[3, 5].item())
"""


def _has_heatmaps(page: Page) -> None:
    page.get_by_test_id("node-list").locator('[data-node-name="w"]').click()
    insp = page.get_by_test_id("inspector")
    # the value's heatmap and the gradient's, and no "only a summary" note
    expect(insp.get_by_test_id("inspector-value").locator(".heatmap")).to_have_count(1)
    expect(insp.locator(".heatmap")).to_have_count(2)
    expect(insp).not_to_contain_text("Only a summary was sent")


def test_a_finished_run_and_its_share_link_show_heatmaps(page: Page, browser: Browser) -> None:
    page.goto("/")
    set_code(page, WEIGHT)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    _has_heatmaps(page)
    shown = page.evaluate(
        """() => { const s = window.__backscope.app.log.state();
        const t = [...s.tensors.values()].find(t => t.name === 'w');
        return window.__backscope.shown(t.id); }"""
    )
    assert shown["flat"] is not None and len(shown["flat"]) == 256
    # w[3, 5] as the snippet printed it
    printed = float(page.get_by_test_id("console").inner_text().split()[0])
    assert shown["flat"][3 * 16 + 5] == pytest.approx(printed, abs=1e-6)
    shot(page, "stored-values-finished")
    page.get_by_test_id("share").click()
    url = page.get_by_test_id("share-url").input_value()
    ctx = new_context(browser, url.split("/?")[0])
    try:
        other = ctx.new_page()
        other.goto(url)
        expect(other.get_by_test_id("status")).to_contain_text(FINISHED)
        _has_heatmaps(other)
        shot(other, "stored-values-share-link")
    finally:
        ctx.close()
