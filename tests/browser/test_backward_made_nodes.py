"""Nodes backward records under create_graph=True, in Chromium against the real server: marked
as made by backward in the node list and the inspector, with the backward pass that made them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

DOUBLE = """import torch
x = torch.tensor([1., 2.], requires_grad=True)
y = (x ** 3).sum()
g, = torch.autograd.grad(y, x, create_graph=True)
z = g.sum()
z.backward()
print(x.grad)
"""


def test_nodes_made_by_backward_are_marked_with_their_pass(page: Page) -> None:
    page.goto("/")
    set_code(page, DOUBLE)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    expect(page.get_by_test_id("console")).to_contain_text("tensor([ 6., 12.])")
    nodes = page.get_by_test_id("node-list")
    # PowBackward0's backward formula, grad * (3 * x.pow(2)), records a PowBackward0, a
    # MulBackward1 (the exponent, a scalar, times it) and a MulBackward0 (line 4), as PyTorch's
    marked = nodes.locator("li", has=page.locator(".nl-madeby"))
    expect(marked).to_have_count(3)
    expect(marked.locator(".nl-madeby").first).to_have_text("by backward #1")
    # the forward's own nodes are not marked
    expect(nodes.locator('[data-node-name="PowBackward0"]').first).not_to_contain_text(
        "by backward"
    )
    marked.first.click()
    expect(page.get_by_test_id("made-by-backward")).to_contain_text("backward #1 (line 4)")
    shot(page, "backward-made-nodes")
