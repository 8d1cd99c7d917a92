"""A first-time user's walk: module boxes, labels, overlays, errors mid-backward, hooks, keys.

Geometry comes from the page's own state (`__backscope.geometry()`: where each vertex and
module box is drawn, in screen pixels), not from pixels of a screenshot.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import new_context, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = re.compile(r"events · cursor (\d+)/\1 · (ok|error)")

MLP = """import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.act = nn.ReLU()
        self.fc2 = nn.Linear(8, 8)
        self.fc3 = nn.Linear(8, 1)

    def forward(self, x):
        h = self.act(self.fc1(x))
        h = self.act(self.fc2(h))
        return self.fc3(h)


torch.manual_seed(0)
model = MLP()
x = torch.randn(16, 4)
target = torch.randn(16, 1)
loss = nn.functional.mse_loss(model(x), target)
loss.backward()
"""

BOOM = """import torch


class Boom(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        raise ValueError("backward of Boom failed on purpose")


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
z = Boom.apply(y)
w = (z * y).sum()
w.backward()
"""

HOOKS = """import torch

x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
y = x * w
z = y.relu()
z.grad_fn.register_hook(lambda gi, go: None)
z.grad_fn.register_prehook(lambda go: None)
loss = z.sum()
loss.backward()
"""


def _geometry(page: Page) -> dict[str, Any]:
    """Wait until every vertex is placed and drawn, then read where things are."""
    page.wait_for_function(
        """() => { const a = window.__backscope.app;
                   return a.pos.size > 0 && a.pos.size === a.log.state().vertices.size; }""",
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    return geo


def _meets(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def _inside(a: dict[str, float], b: dict[str, float]) -> bool:
    eps = 0.5
    return (
        a["x"] >= b["x"] - eps
        and a["y"] >= b["y"] - eps
        and a["x"] + a["w"] <= b["x"] + b["w"] + eps
        and a["y"] + a["h"] <= b["y"] + b["h"] + eps
    )


def _assert_clear_view(geo: dict[str, Any]) -> None:
    """Every vertex is on the canvas, not under an overlay, and shows its whole label."""
    canvas = geo["canvas"]
    for v in geo["vertices"]:
        assert _inside(v, canvas), f"{v['title']} is off the canvas"
        assert v["fits"], f"{v['title']} is cut off"
        for name, rect in geo["overlays"].items():
            if rect is not None:
                assert not _meets(v, rect), f"{name} covers {v['title']}"


def test_mlp_module_boxes_never_overlap_and_hold_their_parameters(page: Page) -> None:
    page.goto("/")
    set_code(page, MLP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    geo = _geometry(page)
    boxes = geo["boxes"]
    assert [b["path"] for b in boxes] == [
        "MLP",
        "MLP.fc1",
        "MLP.act",
        "MLP.fc2",
        "MLP.act",
        "MLP.fc3",
    ]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if set(b["members"]) <= set(a["members"]):
                assert _inside(b, a), f"{b['path']} sticks out of {a['path']}"
            else:
                assert not _meets(a, b), f"{a['path']} overlaps {b['path']}"
        # a module box holds its own ops and parameters, and no other vertex
        for v in geo["vertices"]:
            if v["id"] not in a["members"]:
                assert not _meets(v, a), f"{v['title']} drawn inside {a['path']}"
    members = {b["path"]: set(b["members"]) for b in boxes}
    for v in geo["vertices"]:
        m = re.match(r"(MLP\.fc\d) param", v["title"])
        if m:
            assert v["id"] in members[m.group(1)], f"{v['title']} outside its layer's box"
    _assert_clear_view(geo)
    shot(page, "walk-mlp-modules")


def test_legend_toggles_and_the_view_refits(page: Page) -> None:
    page.goto("/")
    set_code(page, MLP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    legend = page.get_by_test_id("legend")
    shown = legend.is_visible()
    before = _geometry(page)
    page.locator("body").press("l")
    expect(legend).to_be_visible() if not shown else expect(legend).to_be_hidden()
    expect(page.get_by_test_id("legend-toggle")).to_have_attribute(
        "aria-pressed", str(not shown).lower()
    )
    after = _geometry(page)
    _assert_clear_view(after)
    # hiding the legend frees room, so the fitted graph grows (and shrinks when it comes back)
    grew = after["vertices"][0]["w"] > before["vertices"][0]["w"]
    assert grew == shown


def test_error_mid_backward_keeps_the_partial_graph_in_view(page: Page) -> None:
    page.goto("/")
    set_code(page, BOOM)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    banner = page.get_by_test_id("error")
    # F10 steps even with the focus in the editor, as in a browser's debugger
    page.locator(".cm-line").first.click()  # `import torch`: a line that selects no node
    for _ in range(12):
        if banner.is_visible():
            break
        before = page.get_by_test_id("status").inner_text()
        page.keyboard.press("F10")
        page.wait_for_function(
            "p => document.querySelector('[data-testid=status]').textContent !== p", arg=before
        )
    # with nothing selected the inspector follows the node backward is at
    expect(page.get_by_test_id("inspector-following")).to_be_visible()
    expect(page.get_by_test_id("inspector")).to_contain_text("BoomBackward")
    expect(banner).to_contain_text("ValueError: backward of Boom failed on purpose")
    expect(banner).to_contain_text("raised at line 11")
    expect(page.locator(".cm-line-error")).to_contain_text('raise ValueError("backward of Boom')
    # the graph built before the error stays, and nothing sits on it (banner, legend, buttons)
    shown = set(
        page.get_by_test_id("node-list")
        .locator("[data-node-name]")
        .evaluate_all("els => els.map(e => e.dataset.nodeName)")
    )
    assert {"x", "ExpBackward0", "BoomBackward", "MulBackward0", "SumBackward0"} <= shown
    _assert_clear_view(_geometry(page))
    shot(page, "walk-error-mid-backward")


def test_hooks_say_what_they_are_and_what_they_saw(page: Page) -> None:
    page.goto("/")
    set_code(page, HOOKS)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    relu = page.get_by_test_id("node-list").locator('[data-node-name="ReluBackward0"]').first
    expect(relu.locator(".nl-hook")).to_have_text("2 hooks")
    for _ in range(8):
        if relu.get_attribute("data-hook") == "fired":
            break
        before = page.get_by_test_id("status").inner_text()
        page.locator("body").press("ArrowRight")
        page.wait_for_function(
            "p => document.querySelector('[data-testid=status]').textContent !== p", arg=before
        )
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


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_narrow_and_wide_windows_show_the_whole_graph(
    browser: Browser, server: str, size: tuple[int, int]
) -> None:
    w, h = size
    ctx = new_context(browser, server, w, h)
    page = ctx.new_page()
    try:
        page.goto("/")
        set_code(page, MLP)
        press_run(page)
        expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
        _assert_clear_view(_geometry(page))
        for tid in ("run", "step", "step-back", "continue", "share", "export-json", "status"):
            box = page.get_by_test_id(tid).bounding_box()
            assert box is not None and box["x"] + box["width"] <= w, tid
        shot(page, f"walk-mlp-{w}")
    finally:
        ctx.close()


def test_a_share_link_goes_away_with_its_run(page: Page) -> None:
    page.goto("/")
    set_code(page, HOOKS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-url")
    expect(link).to_be_visible()
    first = link.input_value()
    press_run(page)
    expect(link).to_be_hidden()
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    page.get_by_test_id("share").click()
    expect(link).to_be_visible()
    assert link.input_value() != first
