"""Values at the cursor, in Chromium against the real server: a tensor changed in place shows
the values of its version current at the cursor, lists its versions with the line that made
each, and time travel through the versions list shows each version's values again."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

# the run finished and the cursor is at its last event
FINISHED = finished("ok")


def _finish(page: Page, code: str) -> None:
    page.goto("/")
    set_code(page, code)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)


def _pick(page: Page, name: str) -> None:
    page.get_by_test_id("node-list").locator(f'[data-node-name="{name}"]').first.click()


def _value_cells(page: Page) -> Locator:
    return page.get_by_test_id("inspector-value").locator("table.vals td")


def _cells(page: Page) -> list[str]:
    return [c.strip() for c in _value_cells(page).all_inner_texts()]


SGD_BY_HAND = """import torch
w = torch.tensor([1., 2.], requires_grad=True)
(w * w).sum().backward()
with torch.no_grad():
    w -= 0.5 * w.grad
print(w)
"""


def test_an_update_under_no_grad_shows_the_new_values(page: Page) -> None:
    _finish(page, SGD_BY_HAND)
    expect(page.get_by_test_id("console")).to_contain_text("tensor([0., 0.], requires_grad=True)")
    _pick(page, "w")
    inspector = page.get_by_test_id("inspector")
    expect(inspector).to_contain_text("v1")
    # the values of v1, what the console printed (today's page showed v0's 1. 2.)
    expect(_value_cells(page)).to_have_text(["0.", "0."])
    versions = page.get_by_test_id("tensor-versions").locator("li")
    expect(versions).to_have_count(2)
    expect(versions.nth(0)).to_contain_text("v0")
    expect(versions.nth(0)).to_contain_text("line 2")
    expect(versions.nth(0)).to_contain_text("[1., 2.]")
    expect(versions.nth(1)).to_contain_text("in place at line 5")
    expect(versions.nth(1)).to_contain_text("[0., 0.]")
    expect(versions.nth(1)).to_have_class(re.compile(r"\bnow\b"))
    shot(page, "values-over-time-v1")


def test_time_travel_through_the_versions_list(page: Page) -> None:
    _finish(page, SGD_BY_HAND)
    _pick(page, "w")
    page.get_by_test_id("tensor-versions").locator('li[data-version="0"]').click()
    # the cursor moved back to v0: its values, and v1 is later
    expect(page.get_by_test_id("status")).not_to_contain_text(FINISHED)
    expect(_value_cells(page)).to_have_text(["1.", "2."])
    later = page.get_by_test_id("tensor-versions").locator('li[data-version="1"]')
    expect(later).to_have_class(re.compile(r"\blater\b"))
    shot(page, "values-over-time-v0")
    later.click()
    expect(_value_cells(page)).to_have_text(["0.", "0."])


OPTIMIZER = """import torch
lin = torch.nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.0]]))
    lin.bias.zero_()
opt = torch.optim.SGD(lin.parameters(), lr=0.1)
x = torch.tensor([[1., 2.]])
for step in range(2):
    opt.zero_grad()
    lin(x).sum().backward()
    opt.step()
    print("step", step, " ".join(f"{v:.4f}" for v in lin.weight.flatten().tolist()))
"""


def test_optimizer_steps_show_each_version_of_the_weight(page: Page) -> None:
    _finish(page, OPTIMIZER)
    console = page.get_by_test_id("console")
    expect(console).to_contain_text("step 1")
    printed = re.findall(r"step (\d) (\S+) (\S+)", console.inner_text())
    assert len(printed) == 2
    last = [float(printed[1][1]), float(printed[1][2])]
    # the first leaf the graph lists is the weight (its name is test_parameter_names.py's)
    page.get_by_test_id("node-list").locator("li.kind-leaf").first.click()
    expect(page.get_by_test_id("inspector")).to_contain_text("[1, 2] float32")
    # at the end the weight holds what the last print showed
    expect(_value_cells(page)).to_have_count(2)
    assert [float(c) for c in _cells(page)] == pytest.approx(last, abs=1e-4)
    versions = page.get_by_test_id("tensor-versions").locator("li")
    texts = versions.all_inner_texts()
    # copy_ at line 4, then one opt.step() per loop iteration (line 11)
    assert any("line 4" in t for t in texts), texts
    steps = [t for t in texts if "line 11" in t]
    assert len(steps) == 2, texts
    # each step's version shows its own values: the two differ, as the prints do
    first, second = (re.search(r"\[\[.*\]\]", t) for t in steps)
    assert first and second and first.group(0) != second.group(0), steps


APPLY = """import torch
t = torch.tensor([1., 2., 3.])
u = t + 1
t.apply_(lambda x: x * 10)
print(t)
"""


def test_values_written_by_apply_are_shown_though_the_version_stays(page: Page) -> None:
    """`apply_` does not bump the version (as in PyTorch); the tensor still holds the values
    it wrote from that line on, and the versions list shows the write at the same version."""
    _finish(page, APPLY)
    expect(page.get_by_test_id("console")).to_contain_text("tensor([10., 20., 30.])")
    _pick(page, "t")
    expect(_value_cells(page)).to_have_text(["10.", "20.", "30."])
    versions = page.get_by_test_id("tensor-versions").locator("li")
    expect(versions).to_have_count(2)
    expect(versions.nth(0)).to_contain_text("made at line 2")
    expect(versions.nth(1)).to_contain_text("v0")
    expect(versions.nth(1)).to_contain_text("written at line 4, version not bumped")
    expect(versions.nth(1)).to_have_class(re.compile(r"\bnow\b"))
    # back before the write: the values made at line 2
    versions.nth(0).click()
    expect(_value_cells(page)).to_have_text(["1.", "2.", "3."])
    expect(versions.nth(1)).to_have_class(re.compile(r"\blater\b"))
