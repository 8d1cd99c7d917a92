"""Names wherever nodes are listed, in Chromium against the real server: two nodes with one
name are told apart (by the tensor they made, else their line) in the dependencies line."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

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


LOOP = """import torch
w = torch.tensor([1., 2.], requires_grad=True)
acc = w
for i in range(3):
    acc = acc * 2
acc.sum().backward()
"""


def test_rows_that_read_alike_in_the_node_list_are_numbered(page: Page) -> None:
    """A loop's nodes share name and line: each row says which one it is (before: rows
    `MulBackward0 L5` that could not be told apart); one told apart by its variable, or one of
    a kind, gets no number."""
    page.goto("/")
    set_code(page, LOOP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok"))
    muls = page.get_by_test_id("node-list").locator('[data-node-name="MulBackward0"]')
    expect(muls).to_have_count(3)
    # the last one made `acc` as the loop ended: its variable tells it apart
    expect(muls.locator(".nl-nth")).to_have_text(["#1", "#2"])
    expect(muls.nth(2).locator(".nl-label")).to_have_text("acc")
    sums = page.get_by_test_id("node-list").locator('[data-node-name="SumBackward0"]')
    expect(sums.locator(".nl-nth")).to_have_count(0)
    # the number is in the order the nodes were made: #1 is the first multiplication, whose
    # input is the leaf w
    muls.nth(0).click()
    expect(page.get_by_test_id("inspector")).to_contain_text("→ torch::autograd::AccumulateGrad")
    shot(page, "node-names-loop")
