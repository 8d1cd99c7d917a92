"""Tensor and node hooks, in Chromium against the real server: a hook's row lights up when it
fires, the inspector lists each hook with its kind, line and what it saw, and the firings panel
lists them in firing order with the registering line marked in the editor (module hooks:
test_module_hooks.py; saved-tensor hooks: test_saved_tensors.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import entry, move_cursor, press_run, set_code, shot, step_until

pytestmark = pytest.mark.browser

TENSOR_HOOK = """import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print("hook saw", g))
loss = y.pow(2).sum()
loss.backward()
print(x.grad)
"""

NODE_HOOKS = """import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
y = x * w
z = y.relu()
z.grad_fn.register_hook(lambda gi, go: None)
z.grad_fn.register_prehook(lambda go: None)
loss = z.sum()
loss.backward()
"""

TWO_KINDS = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g * 2)
y.grad_fn.register_prehook(lambda go: None)
loss = y.sum()
loss.backward()
"""


def test_hook_lights_up_when_it_fires(page: Page) -> None:
    page.goto("/")
    set_code(page, TENSOR_HOOK)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    mul = entry(page, "MulBackward0").first
    expect(mul).to_have_attribute("data-hook", "idle")
    for _ in range(12):
        if mul.get_attribute("data-hook") == "fired":  # drawn with the step's status
            break
        move_cursor(page, lambda: page.get_by_test_id("step").click())
    expect(mul).to_have_attribute("data-hook", "fired")
    expect(page.get_by_test_id("console")).to_contain_text("hook saw tensor([ 6., 12., 18.])")
    shot(page, "hook-fired")


def test_hooks_say_what_they_are_and_what_they_saw(page: Page) -> None:
    page.goto("/")
    set_code(page, NODE_HOOKS)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    relu = entry(page, "ReluBackward0").first
    expect(relu.locator(".nl-hook")).to_have_text("2 hooks")
    for _ in range(8):
        if relu.get_attribute("data-hook") == "fired":  # drawn with the step's status
            break
        move_cursor(page, lambda: page.locator("body").press("ArrowRight"))
    expect(relu).to_have_attribute("data-hook", "fired")
    relu.click()
    hooks = page.get_by_test_id("inspector-hooks")
    # the pre-hook runs first, before the node: it is listed first, firing, with its input
    first = hooks.locator("li").first
    expect(first).to_contain_text("pre-hook (Node.register_prehook) · <lambda>, line 8")
    expect(first).to_contain_text("fired 1× · firing now")
    expect(first).to_contain_text("saw grad[0] [1., 1., 1.]")
    expect(hooks.locator("li").nth(1)).to_contain_text(
        "hook (Node.register_hook) · <lambda>, line 7"
    )
    expect(hooks.locator("li").nth(1)).to_contain_text("not fired yet")
    shot(page, "walk-hooks")


def test_hooks_fire_in_order_with_their_line_marked(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_KINDS)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    note = page.get_by_test_id("pause-note")
    expect(note).to_contain_text("Paused before the first backward node, SumBackward0 (line 6)")
    page.locator("#graph").click(position={"x": 5, "y": 300})
    step_until(page, "hook_fired")
    expect(note).to_be_hidden()
    firings = page.get_by_test_id("hook-firings")
    expect(firings).to_contain_text("1. tensor hook L4 on y")
    expect(firings.locator(".firing.now")).to_have_text("1. tensor hook L4 on y")
    # the hook's registration line is lit in the editor, and the inspector opens with the hook
    expect(page.locator(".cm-line-selected", has_text="register_hook")).to_have_count(1)
    first = page.get_by_test_id("inspector").locator("section").first
    expect(first).to_contain_text("firing now")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=hook-firings] .firing').length === 2"
    )
    expect(firings.locator(".firing").nth(1)).to_have_text("2. pre-hook L5 on MulBackward0")
    expect(page.locator(".cm-line-selected", has_text="register_prehook")).to_have_count(1)
    shot(page, "walk2-hook-order")
    page.keyboard.press("ArrowLeft")
    expect(firings.locator(".firing")).to_have_count(1)
