"""Breakpoints, in Chromium against the real server: a line's (from the editor's gutter), an
op's and a NaN gradient's pause backward where they should, and a NaN pause says where the NaN
came from."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser


def _current(page: Page) -> Any:
    return page.get_by_test_id("node-list").locator('[aria-current="step"]')


BREAK_CODE = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.exp()
w = z.sum()
w.backward()
print(x.grad)
"""


def test_line_breakpoint_pauses_at_that_lines_node(page: Page) -> None:
    page.goto("/")
    set_code(page, BREAK_CODE)
    line5 = page.locator(".cm-lineNumbers .cm-gutterElement").filter(has_text=re.compile(r"^5$"))
    line5.click()
    expect(page.locator(".cm-bp")).to_have_count(1)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (breakpoint)")
    expect(_current(page)).to_have_attribute("data-node-name", "ExpBackward0")
    shot(page, "breakpoint")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(finished())
    expect(page.get_by_test_id("console")).to_contain_text("tensor([ 60.2566, 1210.2864])")


OPS = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y * x
w = (z * 2).sum()
w.backward()
print(x.grad)
"""


def test_op_breakpoint_pauses_at_the_first_mul(page: Page) -> None:
    page.goto("/")
    set_code(page, OPS)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-op").fill("MulBackward0")
    page.get_by_test_id("break-apply").click()
    expect(page.get_by_test_id("breakpoints")).to_contain_text("1")
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (breakpoint)")
    expect(_current(page)).to_have_attribute("data-node-name", "MulBackward0")
    # backward reaches `z * 2` first: its node is the later MulBackward0 (line 6)
    expect(_current(page)).to_contain_text("L6")
    shot(page, "op-breakpoint")
    page.get_by_test_id("continue").click()
    # the status said "paused (breakpoint)" before Continue too: wait for the next pause first
    expect(_current(page)).to_contain_text("L5")
    expect(page.get_by_test_id("status")).to_contain_text("paused (breakpoint)")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(finished())


NAN = """import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x.sqrt()
z = (y * 0).sum()
z.backward()
print(x.grad)
"""


def test_nan_breakpoint_pauses_where_a_nan_gradient_appears(page: Page) -> None:
    page.goto("/")
    set_code(page, NAN)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").check()
    page.get_by_test_id("break-apply").click()
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (nan)")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(finished())
    # what PyTorch prints: d/dx sqrt(x) * 0 at 0 is inf * 0 = nan
    expect(page.get_by_test_id("console")).to_contain_text("tensor([nan, 0.])")


NAN_FROM_DIV = """import torch
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
w = (x - x) / (x - x).abs().sum()
loss = w.sum() + x.sum()
loss.backward()
"""


def test_a_nan_pause_says_where_the_nan_came_from(page: Page) -> None:
    page.goto("/")
    set_code(page, NAN_FROM_DIV)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").set_checked(True)
    page.get_by_test_id("break-apply").click()
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (nan)")
    note = page.get_by_test_id("pause-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Paused on a NaN gradient before")
    expect(note).to_contain_text("sent by DivBackward0 (line 3)")
    shot(page, "walk2-nan-pause")
    # the NaN flows on: Continue pauses at the next node it reaches, and the note follows
    first = note.inner_text()
    page.get_by_test_id("continue").click()
    expect(note).not_to_have_text(first)
    expect(note).to_contain_text("Paused on a NaN gradient before")
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").set_checked(False)
    page.get_by_test_id("break-apply").click()
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    expect(note).to_be_hidden()
