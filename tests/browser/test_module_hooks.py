"""Module hooks, in Chromium against the real server: forward pre-hooks, forward hooks and full
backward hooks are drawn on their module's ops and counted once per call, as PyTorch calls
them, and the timeline names each firing (not only the console)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

HOOKS = """import torch
import torch.nn as nn
net = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
calls = []
net[0].register_forward_pre_hook(lambda m, i: calls.append("pre"))
net[0].register_forward_hook(lambda m, i, o: calls.append("fwd"))
net.register_full_backward_hook(lambda m, gi, go: calls.append("bwd"))
x = torch.tensor([[1., 2.]], requires_grad=True)
net(x).sum().backward()
print(calls)
"""


def test_module_hooks_are_drawn_and_counted_once_per_call(page: Page) -> None:
    page.goto("/")
    set_code(page, HOOKS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    # PyTorch calls each once: pre-hook, forward hook, then the backward hook once
    expect(page.get_by_test_id("console")).to_contain_text("['pre', 'fwd', 'bwd']")
    badges = page.get_by_test_id("node-list").locator(".nl-hook")
    expect(badges).to_have_count(3)
    assert badges.all_inner_texts() == ["hook ×1"] * 3, badges.all_inner_texts()
    titles = " | ".join(str(b.get_attribute("title")) for b in badges.all())
    for kind in ("forward pre-hook", "forward hook", "module backward hook"):
        assert kind in titles, titles
    shot(page, "module-hooks")
    # the timeline names each firing where it happens
    fired = page.evaluate(
        """() => window.__backscope.app.log.events.flatMap((e, i) =>
            e.type === "hook_fired" ? [i] : [])"""
    )
    assert len(fired) == 3, fired
    label = page.locator("#tl-label")
    words = []
    for i in fired:
        page.locator("#timeline").fill(str(i))
        expect(label).to_contain_text(f"#{i} hook_fired ·")
        words.append(label.inner_text())
    assert "forward pre-hook on" in words[0] and "forward hook on" in words[1], words
    assert "module backward hook on" in words[2], words


def test_module_hooks_say_what_they_were_given(page: Page) -> None:
    """A forward (pre-)hook is given the module's inputs, not a gradient; a full backward hook
    its grad_input (PyTorch's names for the arguments)."""
    page.goto("/")
    set_code(page, HOOKS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    seen: dict[str, str] = {}
    for row in page.get_by_test_id("node-list").locator("li", has=page.locator(".nl-hook")).all():
        row.click()
        hooks = page.get_by_test_id("inspector-hooks").locator("li")
        expect(hooks.first).to_be_visible()
        for text in hooks.all_inner_texts():
            seen[text.splitlines()[0]] = text
    pre = next(v for k, v in seen.items() if "forward pre-hook" in k)
    fwd = next(v for k, v in seen.items() if "forward hook" in k and "pre-hook" not in k)
    bwd = next(v for k, v in seen.items() if "backward hook" in k)
    # today: "saw grad[0] [[1., 2.]]" for the forward hooks' input x
    assert "saw input[0] [[1., 2.]]" in pre and "grad" not in pre, pre
    assert "saw input[0] [[1., 2.]]" in fwd and "grad" not in fwd, fwd
    assert "saw grad_input[0]" in bwd, bwd
