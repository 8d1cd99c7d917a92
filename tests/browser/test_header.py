"""The header and a first visit, in Chromium against the real server: the first-run hint and
the help dialog, and every control and the whole status line on screen in 1280 to 1920 px
windows (with a breakpoint badge too)."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import finished, fresh_page, press_run, set_code, shot

pytestmark = pytest.mark.browser

NAN = """import torch
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
w = (x - x) / (x - x).abs().sum()
loss = w.sum() + x.sum()
loss.backward()
"""


def test_first_run_hint_help_and_layouts(context: BrowserContext) -> None:
    errors: list[str] = []
    for w, h in ((1280, 800), (1920, 1080)):
        pg = fresh_page(context, w, h)
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto("/")
        expect(pg.locator("#first-hint")).to_be_visible()
        expect(pg.get_by_test_id("editor")).to_contain_text("import torch")
        shot(pg, f"first-run-{w}")
        pg.keyboard.press("?")
        expect(pg.locator("#help-dlg")).to_be_visible()
        pg.keyboard.press("Escape")
        expect(pg.locator("#help-dlg")).to_be_hidden()
        pg.get_by_test_id("run").click()
        expect(pg.get_by_test_id("status")).to_contain_text(finished())
        expect(pg.locator("#first-hint")).to_be_hidden()
        # every toolbar control stays on screen
        for tid in ("run", "step", "continue", "share", "export-json", "status", "breakpoints"):
            box = pg.get_by_test_id(tid).bounding_box()
            assert box is not None and box["x"] + box["width"] <= w, tid
        status = pg.get_by_test_id("status").bounding_box()
        assert status is not None and status["width"] >= 150
        shot(pg, f"run-{w}")
        pg.close()
    assert not errors, errors


# 1440: between the compact header's widths and the full one's, a paused run's header once
# squeezed the status to one word per line, cut after the second
@pytest.mark.parametrize("width", [1280, 1440])
def test_the_status_is_whole_in_a_paused_header_with_a_breakpoint_badge(
    context: BrowserContext, width: int
) -> None:
    page = fresh_page(context, width, 800)
    page.goto("/")
    set_code(page, NAN)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").set_checked(True)
    page.get_by_test_id("break-apply").click()
    press_run(page)
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("paused (nan)")
    box = status.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    assert box["width"] >= 150
    clipped = page.evaluate(
        """() => { const s = document.querySelector('[data-testid=status]');
                   return s.scrollHeight - s.clientHeight; }"""
    )
    assert clipped <= 1, f"the status text is cut by {clipped}px"
    shot(page, f"walk2-header-{width}")
    page.close()
