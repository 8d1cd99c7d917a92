"""Saved tensors, in Chromium against the real server: stepping backward shows which saved
tensors each node unpacked and when, packed and unpacked through saved_tensors_hooks."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    ROOT,
    entry,
    finished,
    move_cursor,
    press_run,
    set_code,
    shot,
    step_until,
)

pytestmark = pytest.mark.browser

SAVED_HOOKS = (ROOT / "frontend" / "tests" / "fixtures" / "savedhooks.py").read_text()


def test_stepping_backward_shows_which_saved_tensors_were_unpacked(page: Page) -> None:
    page.goto("/")
    set_code(page, SAVED_HOOKS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok"))
    move_cursor(page, lambda: page.locator("body").press("r"))
    # ExpBackward0 (z = y.exp()) runs first of the hooked nodes: before its unpack, it has not
    step_until(page, "node_enter")
    step_until(page, "saved_unpack · result of ExpBackward0")
    rows = page.get_by_test_id("saved-tensors")
    result = rows.locator('tr[data-saved="result"]')
    expect(result).to_contain_text("packed → int")
    expect(result.locator(".unpack.now")).to_have_text(re.compile(r"unpacked at #\d+$"))
    expect(result).to_have_class(re.compile("unpacking"))
    exp_badge = entry(page, "ExpBackward0").locator(".nl-saved")
    expect(exp_badge).to_have_text("unpacking")
    shot(page, "saved-hooks-unpack")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    expect(result).to_contain_text("not unpacked yet")
    # MulBackward0 (y = x * w) unpacks other, then self; both were packed by the hook
    step_until(page, "saved_unpack · other of MulBackward0")
    expect(rows.locator('tr[data-saved="other"] .unpack')).to_contain_text("unpacked at #")
    expect(rows.locator('tr[data-saved="self"] .unpack')).to_have_text("not unpacked yet")
    # the node list says the same: ExpBackward0 done with its one, MulBackward0 unpacking
    expect(exp_badge).to_have_text("packed 1/1 unpacked")
    mul_badge = entry(page, "MulBackward0").locator(".nl-saved").first
    expect(mul_badge).to_have_text("unpacking")
    # the last MulBackward0 (loss = (z * x).sum(), outside the with block) saved plainly
    entry(page, "MulBackward0").nth(1).click()
    expect(page.locator("#inspector .insp-name")).to_have_text("MulBackward0")
    expect(rows.locator("td.note")).to_have_count(0)
    expect(rows).not_to_contain_text("packed")
