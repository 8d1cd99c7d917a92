"""Names wherever nodes are listed, in Chromium against the real server: two nodes with one
name are told apart (by the tensor they made, else their line) in the dependencies line."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import press_run, set_code, shot

pytestmark = pytest.mark.browser

TWO_SUMS = """import torch
x = torch.tensor([1., 2.], requires_grad=True)
a = (x * 2).sum()
b = (x * 3).sum()
loss = a + b
loss.backward()
"""


def test_same_named_nodes_are_told_apart_in_the_dependencies_line(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_SUMS)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    queue = page.get_by_test_id("queue")
    # today: "SumBackward0: 1 · SumBackward0: 1"
    expect(queue).to_contain_text("SumBackward0 (a): 1")
    expect(queue).to_contain_text("SumBackward0 (b): 1")
    shot(page, "node-names-dependencies")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text("ok")
