"""Stepping through backward, in Chromium against the real server: the Step and Step-back
buttons in a paused run, the arrow keys in a finished one, and a finished run's replay hint."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    SplitSocket,
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


# the events a Step stops at (the page's STOPS, store.ts)
STOPS = {"node_enter", "hook_fired", "saved_unpack", "node_exit", "backward_finished", "error"}

# what the page shows at the cursor: the node the node list marks current, and the node current
# in the page's state at the cursor (as the status line and the inspector show it)
_MARKED_JS = """() => {
    const s = window.__backscope.app.log.state();
    const row = document.querySelector('[data-testid=node-list] [aria-current=step]');
    const name = (id) => { const v = id === null ? undefined : s.vertices.get(id);
                           return v ? v.name.split('::').pop() : null; };
    return { marked: row ? row.dataset.nodeId : null, current: s.current,
             name: name(s.current) };
}"""


def _frames(page: Page, n: int = 2) -> None:
    """Wait until the page has drawn `n` more frames (and delivered the resize observations
    of the first)."""
    page.evaluate(
        """n => new Promise(r => {
            const f = k => (k ? requestAnimationFrame(() => f(k - 1)) : r(null));
            f(n); })""",
        n,
    )


def _landed_current(page: Page) -> str:
    """The name of the node the node list marks current once a step has landed on its stop
    (the run paused again, or ended): the cursor moves with the step's first events and the
    stop follows. The marker is the node current at the cursor in the page's state."""
    page.wait_for_function(
        """() => /paused|· ok/.test(document.querySelector('[data-testid=status]').textContent)"""
    )
    _frames(page)
    shown = page.evaluate(_MARKED_JS)
    assert shown["marked"] == shown["current"], shown
    return str(shown["name"] or "")


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


def test_the_list_marks_the_stop_when_the_step_goes_on_after_it(page: Page, server: str) -> None:
    """A Step in a paused run whose stop reaches the page in a frame of its own: the server's
    frame is cut right after the stop and the rest (the next node entered, the pause) held until
    the page shows the stop. The rest is after the cursor, so nothing shown at the cursor
    changes: the node list marks the stop's node, also when the list is painted again (the
    inspector's height changes once values can be loaded; the window is resized)."""
    sock = SplitSocket(page)
    page.goto("/")
    page.get_by_test_id("examples").select_option(example_with(server, "class Exp(Function)"))
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    before = page.evaluate("() => window.__backscope.app.log.length")
    sock.hold_after(STOPS)
    page.get_by_test_id("step").click()
    page.wait_for_function(
        """n => { const l = window.__backscope.app.log;
                  return l.length > n && !l.following && l.cursor === l.length - 1; }""",
        arg=before,
    )
    _frames(page)
    at_stop = page.evaluate(_MARKED_JS)
    assert at_stop["current"] is not None and at_stop["marked"] == at_stop["current"], at_stop
    sock.release()
    expect(page.get_by_test_id("status")).to_contain_text("paused (step)")
    _frames(page)
    after = page.evaluate(_MARKED_JS)
    assert after["current"] == at_stop["current"], (at_stop, after)
    assert after["marked"] == at_stop["current"], (at_stop, after)
    page.set_viewport_size({"width": 1500, "height": 820})
    _frames(page)
    resized = page.evaluate(_MARKED_JS)
    assert resized["marked"] == at_stop["current"], (at_stop, resized)


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
