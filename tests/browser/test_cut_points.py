"""Cut points, in Chromium against the real server: every place a tensor leaves the graph is
drawn (no_grad, inference_mode, detach(), .data, requires_grad_(False)), with its line, and the
tensor it made says why its .grad is None."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

CUTS = """import torch
u = torch.tensor([1., 2.], requires_grad=True)
v = u.detach() * 3
d = u.data
p = torch.tensor([4.], requires_grad=True)
p.requires_grad_(False)
with torch.no_grad():
    n = u * 2
with torch.inference_mode():
    i = u + 1
loss = (u * u).sum()
loss.backward()
print(u.grad, v, p.requires_grad)
"""


def test_every_cut_point_is_drawn_with_its_line(page: Page) -> None:
    page.goto("/")
    set_code(page, CUTS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    expect(page.get_by_test_id("console")).to_contain_text(
        "tensor([2., 4.]) tensor([3., 6.]) False"
    )
    cuts = page.get_by_test_id("node-list").locator("li.kind-cut")
    # today only the two ops under no_grad / inference_mode were drawn; detach drew nothing
    expect(cuts).to_have_count(5)
    lines = sorted(int(t) for t in re.findall(r"L(\d+)", " ".join(cuts.all_inner_texts())))
    assert lines == [3, 4, 6, 8, 10], lines
    expect(cuts.filter(has_text="detach()")).to_have_count(1)
    shot(page, "cut-points")
    # the detached tensor hangs off u: selecting the cut names what made it and where
    cuts.filter(has_text="detach()").click()
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", "detach")
    expect(page.get_by_test_id("grad-none")).to_contain_text(".detach() at line 3")
    cuts.filter(has_text="d").filter(has=page.locator(".nl-line", has_text="L4")).click()
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", "data")
    # a cut named by its tensor says what cut it (before: a second row `p`, like the leaf's)
    rg = cuts.filter(has=page.locator(".nl-line", has_text="L6"))
    expect(rg.locator(".nl-cut")).to_have_text("requires_grad_(False)")
    expect(
        cuts.filter(has=page.locator(".nl-line", has_text="L4")).locator(".nl-cut")
    ).to_have_text(".data")
    expect(
        cuts.filter(has=page.locator(".nl-line", has_text="L8")).locator(".nl-cut")
    ).to_have_text("MulBackward0 · no_grad")
    rg.click()
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", "requires_grad_false")
    expect(page.get_by_test_id("grad-none")).to_contain_text("line 6")
