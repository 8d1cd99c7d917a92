"""Saved-tensor hooks, complex values and share links in the page (headless Chromium)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.conftest import ROOT, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = re.compile(r"events · cursor (\d+)/\1 · ok")
SAVED_HOOKS = (ROOT / "frontend" / "tests" / "fixtures" / "savedhooks.py").read_text()


def _step_to(page: Page, text: str, limit: int = 40) -> None:
    """Press → until the timeline label shows `text`."""
    for _ in range(limit):
        if text in page.locator("#tl-label").inner_text():
            return
        before = page.locator("#tl-label").inner_text()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#tl-label")).not_to_have_text(before)
    raise AssertionError(f"no step shows {text!r}")


def test_stepping_backward_shows_which_saved_tensors_were_unpacked(page: Page) -> None:
    page.goto("/")
    set_code(page, SAVED_HOOKS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    page.locator("body").press("r")
    # ExpBackward0 (z = y.exp()) runs first of the hooked nodes: before its unpack, it has not
    _step_to(page, "node_enter")
    _step_to(page, "saved_unpack · result of ExpBackward0")
    rows = page.get_by_test_id("saved-tensors")
    result = rows.locator('tr[data-saved="result"]')
    expect(result).to_contain_text("packed → int")
    expect(result.locator(".unpack.now")).to_have_text(re.compile(r"unpacked at #\d+$"))
    expect(result).to_have_class(re.compile("unpacking"))
    nodes = page.get_by_test_id("node-list")
    exp_badge = nodes.locator('[data-node-name="ExpBackward0"] .nl-saved')
    expect(exp_badge).to_have_text("unpacking")
    shot(page, "saved-hooks-unpack")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    expect(result).to_contain_text("not unpacked yet")
    # MulBackward0 (y = x * w) unpacks other, then self; both were packed by the hook
    _step_to(page, "saved_unpack · other of MulBackward0")
    expect(rows.locator('tr[data-saved="other"] .unpack')).to_contain_text("unpacked at #")
    expect(rows.locator('tr[data-saved="self"] .unpack')).to_have_text("not unpacked yet")
    # the node list says the same: ExpBackward0 done with its one, MulBackward0 unpacking
    expect(exp_badge).to_have_text("packed 1/1 unpacked")
    mul_badge = nodes.locator('[data-node-name="MulBackward0"] .nl-saved').first
    expect(mul_badge).to_have_text("unpacking")
    # the last MulBackward0 (loss = (z * x).sum(), outside the with block) saved plainly
    page.get_by_test_id("node-list").locator('[data-node-name="MulBackward0"]').nth(1).click()
    expect(page.locator("#inspector .insp-name")).to_have_text("MulBackward0")
    expect(rows.locator("td.note")).to_have_count(0)
    expect(rows).not_to_contain_text("packed")


def test_complex_values_show_as_pytorch_prints_them(page: Page) -> None:
    page.goto("/")
    set_code(
        page,
        "import torch\n"
        "z = torch.complex(torch.tensor([1., 2.], requires_grad=True), torch.tensor([3., 4.]))\n"
        "(z * z.conj()).real.sum().backward()\n"
        # over 65,536 elements: only a summary comes with the run (smaller ones bring values)
        "big = torch.complex(torch.randn(300, 300), torch.randn(300, 300)).requires_grad_()\n"
        "(big.abs() ** 2).sum().backward()\n",
    )
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    page.get_by_test_id("node-list").locator('[data-node-name="ComplexBackward0"]').first.click()
    # print(z) in PyTorch 2.13: tensor([1.+3.j, 2.+4.j], grad_fn=<ComplexBackward0>)
    values = page.locator("#inspector table.vals").first
    expect(values).to_have_text(re.compile(r"1\.\+3\.j\s*2\.\+4\.j"))
    page.get_by_test_id("node-list").locator('[data-node-name="big"]').first.click()
    expect(page.locator("#inspector")).to_contain_text("Only the first 16 values were sent")
    shot(page, "complex-values")


def test_an_unknown_run_link_says_so_without_a_console_error(page: Page) -> None:
    errors: list[str] = []

    def on_console(m: ConsoleMessage) -> None:
        if m.type == "error":
            errors.append(m.text)

    page.on("console", on_console)
    page.goto("/?run=0123456789ab")
    expect(page.get_by_test_id("notice")).to_be_visible()
    expect(page.get_by_test_id("notice")).to_contain_text("There is no run 0123456789ab")
    expect(page.get_by_test_id("status")).to_contain_text("run 0123456789ab not found")
    shot(page, "unknown-run")
    assert errors == []
    # running something clears the notice
    set_code(page, "import torch\nx = torch.ones(2, requires_grad=True)\nx.sum().backward()\n")
    press_run(page)
    expect(page.get_by_test_id("notice")).to_be_hidden()
