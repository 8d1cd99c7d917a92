"""Errors in the page, in Chromium against the real server: the banner says what PyTorch raised
and where, the editor marks that line, the graph built before the error stays in view, and a
second backward names the call that freed the graph."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    assert_clear_view,
    drawn_geometry,
    entry,
    finished,
    listed_names,
    move_cursor,
    press_run,
    set_code,
    shot,
)

pytestmark = pytest.mark.browser

SECOND_BACKWARD = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
"""

INPLACE = """import torch

x = torch.ones(3, requires_grad=True)
y = x * 2
z = y.exp()
z.add_(1)
out = z.sum()
out.backward()
"""

ANOMALY = """import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    z = y.sum()
    z.backward()
"""

BOOM = """import torch


class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("backward of Boom failed on purpose")


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = Boom.apply(y)
w = (z * y).sum()
w.backward()
"""

SECOND = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print("first", x.grad)
y.backward()
"""


def test_second_backward_shows_the_error_and_keeps_the_graph(page: Page) -> None:
    page.goto("/")
    set_code(page, SECOND_BACKWARD)
    press_run(page)
    banner = page.get_by_test_id("error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("RuntimeError")
    expect(banner).to_contain_text("Trying to backward through the graph a second time")
    expect(banner).to_contain_text("line 6")
    # the editor marks the line on its next update, not with the banner: wait for it
    expect(page.locator(".cm-line").nth(5)).to_have_class(re.compile(r"\bcm-line-error\b"))
    expect(page.locator(".cm-line-error")).to_have_count(1)  # the second y.backward(), line 6
    expect(entry(page, "MulBackward0").first).to_contain_text("freed")
    shot(page, "error-second-backward")


def test_inplace_error_points_at_the_line_that_bumped_the_version(page: Page) -> None:
    page.goto("/")
    set_code(page, INPLACE)
    press_run(page)
    banner = page.get_by_test_id("error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("modified by an inplace operation")
    expect(banner).to_contain_text("modified in place at line 6")
    # the editor marks the line on its next update, not with the banner: wait for it
    expect(page.locator(".cm-line-error")).to_have_text("z.add_(1)")
    expect(entry(page, "ExpBackward0").first).to_be_visible()
    shot(page, "error-inplace")


def test_anomaly_error_points_at_the_forward_line(page: Page) -> None:
    page.goto("/")
    set_code(page, ANOMALY)
    press_run(page)
    banner = page.get_by_test_id("error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("returned nan values")
    expect(banner).to_contain_text("forward line 5 made the NaN")
    # the line's text as CodeMirror draws it (indented by four spaces)
    expect(page.locator(".cm-line-error")).to_have_text(re.compile(r"^\s*y = x\.sqrt\(\)\s*$"))
    shot(page, "error-anomaly")


def test_error_mid_backward_keeps_the_partial_graph_in_view(page: Page) -> None:
    page.goto("/")
    set_code(page, BOOM)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    banner = page.get_by_test_id("error")
    # F10 steps even with the focus in the editor, as in a browser's debugger
    page.locator(".cm-line").first.click()  # `import torch`: a line that selects no node
    for _ in range(12):
        if banner.is_visible():  # drawn with the status: current once the step has shown
            break
        move_cursor(page, lambda: page.keyboard.press("F10"))
    # with nothing selected the inspector follows the node backward is at
    expect(page.get_by_test_id("inspector-following")).to_be_visible()
    expect(page.get_by_test_id("inspector")).to_contain_text("BoomBackward")
    expect(banner).to_contain_text("ValueError: backward of Boom failed on purpose")
    expect(banner).to_contain_text("raised at line 11")
    expect(page.locator(".cm-line-error")).to_contain_text('raise ValueError("backward of Boom')
    # the graph built before the error stays, and nothing sits on it (banner, legend, buttons)
    assert {"x", "ExpBackward0", "BoomBackward", "MulBackward0", "SumBackward0"} <= listed_names(
        page
    )
    assert_clear_view(drawn_geometry(page))
    shot(page, "walk-error-mid-backward")


def test_a_second_backward_names_the_call_that_freed_the_graph(page: Page) -> None:
    page.goto("/")
    set_code(page, SECOND)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    fix = page.get_by_test_id("error-fix")
    expect(fix).to_contain_text("The backward call at line 4 already freed")
    expect(fix).to_contain_text("retain_graph=True")
    # with nothing selected the inspector opens on the node backward failed in
    expect(page.get_by_test_id("inspector-following")).to_contain_text("backward failed in")
    expect(page.get_by_test_id("inspector")).to_contain_text("MulBackward0")
    console = page.get_by_test_id("console")
    # print() output stays; library frames fold; the error line wraps instead of running off
    expect(console).to_contain_text("first tensor([2., 4.])")
    expect(console).to_contain_text("inside torch")
    expect(console.locator("details.tb-lib").first).not_to_have_attribute("open", "")
    wide = page.evaluate(
        """() => { const c = document.getElementById('console');
                   return c.scrollWidth - c.clientWidth; }"""
    )
    assert wide <= 1, f"the console scrolls sideways by {wide}px"
    shot(page, "walk2-second-backward")
