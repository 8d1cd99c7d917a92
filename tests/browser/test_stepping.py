"""Stepping through backward, in Chromium against the real server: the Step and Step-back
buttons in a paused run, the arrow keys in a finished one, and a finished run's replay hint."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    entry,
    example_with,
    finished,
    move_cursor,
    press_run,
    set_code,
    shot,
)

pytestmark = pytest.mark.browser

TWO_PATHS = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
a = x * w
b = x.exp()
y = (a + b).sum()
y.backward()
"""


def _landed_current(page: Page) -> str:
    """The name of the node current at the cursor once the step has landed on its stop (the
    run paused again, or ended), from the page's own state: the cursor moves with the step's
    first events and the stop follows. (The node list marks the same node; that its marker can
    lag the cursor after a step is a known open finding, see issue 14's note.)"""
    handle = page.wait_for_function(
        """() => {
            const status = document.querySelector('[data-testid=status]').textContent;
            if (!/paused|· ok/.test(status)) return false;
            const s = window.__backscope.app.log.state();
            if (s.current === null) return ' ';
            const v = s.vertices.get(s.current);
            return v ? (v.name.split('::').pop() || ' ') : false;
        }"""
    )
    return str(handle.json_value()).strip()


def test_exp_function_steps_until_a_grad_and_back(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(example_with(server, "class Exp(Function)"))
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    shot(page, "exp-paused")
    a = entry(page, "a").first
    seen_current: set[str] = set()
    for _ in range(12):
        if "2.7183" in a.inner_text():
            break
        move_cursor(page, lambda: page.get_by_test_id("step").click())
        name = _landed_current(page)
        if name:
            seen_current.add(name)
    expect(a).to_contain_text("2.7183")
    assert {"ExpBackward", "AccumulateGrad"} <= seen_current
    a.click()
    expect(page.get_by_test_id("inspector")).to_contain_text("2.7183")
    shot(page, "exp-a-grad")
    move_cursor(page, lambda: page.get_by_test_id("step-back").click())
    expect(a).not_to_contain_text("2.7183")
    # stepped back before AccumulateGrad: no .grad shown, and the inspector says why
    expect(page.get_by_test_id("inspector-grad")).to_have_count(0)
    expect(page.get_by_test_id("grad-none")).to_have_text("backward has not reached it yet")
    shot(page, "exp-step-back")


def test_keyboard_steps_through_a_finished_run(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(example_with(server, "class Exp(Function)"))
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished())
    body = page.locator("body")
    body.press("r")  # rewind to just before backward
    expect(entry(page, "a").first).not_to_contain_text("2.7183")
    body.press("ArrowRight")
    current = page.get_by_test_id("node-list").locator('[aria-current="step"]')
    expect(current).to_have_attribute("data-node-name", "ExpBackward")
    for _ in range(4):  # each press's step shown before the next, so what follows sees the 4th
        move_cursor(page, lambda: body.press("ArrowRight"))
    expect(entry(page, "a").first).to_contain_text("2.7183")
    # the tracer reports grad_accumulated while AccumulateGrad runs, as PyTorch writes .grad:
    # one step back (its node_exit) .grad is already there, two (its node_enter) it is not yet
    body.press("ArrowLeft")
    expect(page.locator("#tl-label")).to_contain_text("node_exit")
    expect(entry(page, "a").first).to_contain_text("2.7183")
    body.press("ArrowLeft")
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    expect(entry(page, "a").first).not_to_contain_text("2.7183")


def test_a_finished_run_says_how_to_replay_and_r_then_arrow_replays(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_PATHS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    hint = page.get_by_test_id("replay-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("press R")
    shot(page, "walk2-replay-hint")
    page.locator("#graph").click(position={"x": 5, "y": 300})
    page.keyboard.press("r")
    expect(hint).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    expect(page.get_by_test_id("queue")).to_contain_text("running SumBackward0")
