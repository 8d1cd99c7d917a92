"""Why .grad is None, in Chromium against the real server: every tensor that requires grad or
could have says why it holds no gradient (made under no_grad or inference_mode, a non-leaf,
backward not run, unused, used only under no_grad, cleared by a hook), and leaves used only
under no_grad are not tagged "unused"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")


def _finish(page: Page, code: str) -> None:
    page.goto("/")
    set_code(page, code)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)


def _why(page: Page, name: str, reason: str) -> None:
    """Select the vertex named `name` in the node list; the inspector comes to give `reason`
    (the inspector is redrawn on the next frame: until then it shows the last selection's)."""
    page.get_by_test_id("node-list").locator(f'[data-node-name="{name}"]').first.click()
    expect(page.get_by_test_id("inspector").locator(".insp-name")).to_have_text(name)
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", reason)


MODES = """import torch
w = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([3.], requires_grad=True)
u = torch.tensor([5.], requires_grad=True)
with torch.no_grad():
    s = w * 2
with torch.inference_mode():
    r = b * 4
h = b * 2
loss = h.sum()
loss.backward()
late = torch.tensor([1.], requires_grad=True)
"""


def test_each_reason_is_named_with_its_line(page: Page) -> None:
    _finish(page, MODES)
    # w is read only under no_grad: not "unused" (it was used), and the line says where
    _why(page, "w", "only_untracked")
    expect(page.get_by_test_id("grad-none")).to_contain_text("under no_grad (line 6)")
    row = page.get_by_test_id("node-list").locator('[data-node-name="w"]')
    expect(row).not_to_contain_text("unused")
    expect(row).to_contain_text("no_grad only")
    shot(page, "grad-none-no-grad-only")
    # s was made under no_grad: no graph, so no .grad
    page.get_by_test_id("node-list").locator('li.kind-cut[data-node-name="s"]').click()
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", "no_grad")
    expect(page.get_by_test_id("grad-none")).to_contain_text("torch.no_grad() at line 6")
    page.get_by_test_id("node-list").locator('li.kind-cut[data-node-name="r"]').click()
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", "inference_mode")
    expect(page.get_by_test_id("grad-none")).to_contain_text("line 8")
    # h is made by an op: a non-leaf keeps no .grad without retain_grad()
    page.get_by_test_id("node-list").locator(
        '[data-node-name="MulBackward0"]', has_text="h"
    ).click()
    expect(page.get_by_test_id("grad-none")).to_have_attribute("data-reason", "nonleaf")
    expect(page.get_by_test_id("grad-none")).to_contain_text("retain_grad()")
    # u was never used; late was made after the only backward
    _why(page, "u", "unused")
    expect(page.get_by_test_id("node-list").locator('[data-node-name="u"]')).to_contain_text(
        "unused"
    )
    _why(page, "late", "not_run")
    expect(page.get_by_test_id("grad-none")).to_contain_text("since it was made at line 12")
    # b got its gradient: nothing to explain
    page.get_by_test_id("node-list").locator('[data-node-name="b"]').click()
    expect(page.get_by_test_id("inspector-grad")).to_have_text("[2.]")
    expect(page.get_by_test_id("grad-none")).to_have_count(0)


def test_before_backward_runs_it_says_so(page: Page) -> None:
    code = "import torch\na = torch.tensor([1.], requires_grad=True)\nc = (a * 2).sum()\n"
    _finish(page, code)
    _why(page, "a", "not_run")
    expect(page.get_by_test_id("grad-none")).to_have_text("backward has not run yet")


HOOK_CLEARS = """import torch
p = torch.tensor([1., 2.], requires_grad=True)
def step(t):
    t.grad = None
p.register_post_accumulate_grad_hook(step)
(p * 3).sum().backward()
print(p.grad)
"""


def test_a_hook_that_clears_grad_is_named(page: Page) -> None:
    _finish(page, HOOK_CLEARS)
    expect(page.get_by_test_id("console")).to_contain_text("None")
    _why(page, "p", "cleared")
    expect(page.get_by_test_id("grad-none")).to_contain_text("post-accumulate-grad hook step")
    expect(page.get_by_test_id("grad-none")).to_contain_text("line 5")


CLEARS = """import torch
lin = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.tensor([[1., 2.]])
h = lin(x)
h.retain_grad()
h.sum().backward()
opt.step()
opt.zero_grad()
print(lin.weight.grad, h.grad)
"""


def test_zero_grad_and_retain_grad_are_named(page: Page) -> None:
    _finish(page, CLEARS)
    expect(page.get_by_test_id("console")).to_contain_text("None tensor([[1.]])")
    page.get_by_test_id("node-list").locator("li.kind-leaf").first.click()
    why = page.get_by_test_id("grad-none")
    expect(why).to_have_attribute("data-reason", "cleared")
    expect(why).to_contain_text("cleared at line 9 by zero_grad()")
    # back before zero_grad (line 9) the weight still had its gradient
    page.get_by_test_id("tensor-versions").locator("li").last.click()
    expect(page.get_by_test_id("inspector-grad")).to_be_visible()
