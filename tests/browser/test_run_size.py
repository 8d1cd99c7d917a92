"""No page error at any run size: a run of well over 800 events, stepped through and scrubbed
at window widths where the timeline strip is a fractional number of pixels wide (1280 and
1366 px windows; the default 1600 px one gives a whole number)."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, expect

from tests.browser.conftest import finished, fresh_page, move_cursor, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

CHAIN = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x
for i in range(300):
    y = y * 1.001
y.sum().backward()
print(x.grad)
"""


@pytest.mark.parametrize("width", [1280, 1366])
def test_a_long_run_raises_no_page_error(context: BrowserContext, width: int) -> None:
    page = fresh_page(context, width, 820)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto("/")
        strip = page.locator("#strip").bounding_box()
        assert strip is not None and strip["width"] != int(strip["width"]), strip
        set_code(page, CHAIN)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
        status = page.get_by_test_id("status").inner_text()
        count = int(status.split(" ")[0])
        assert count > 800, status
        expect(page.get_by_test_id("console")).to_contain_text("tensor([")
        # scrub the timeline and step back through backward: every frame redraws the strip
        timeline = page.locator("#timeline")
        for at in (count // 3, count // 2, count - 1):
            timeline.fill(str(at))
            expect(page.get_by_test_id("status")).to_contain_text(f"cursor {at + 1}/{count}")
        move_cursor(page, lambda: page.get_by_test_id("restart").click())
        for _ in range(5):  # each step drawn before the next (and before errors are counted)
            move_cursor(page, lambda: page.get_by_test_id("step").click())
        shot(page, f"run-size-{width}")
        assert not errors, errors[:3]
    finally:
        page.close()
