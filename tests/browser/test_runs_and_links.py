"""A second walk, as a student and as an engineer debugging backward: replaying a finished run,
why a leaf's .grad is what it is, hooks in firing order, why a run paused (NaN), which call
freed the graph, a training loop that stays legible, and a header that fits 1280 px."""

from __future__ import annotations

import json
import math
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import new_context, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = re.compile(r"events · cursor (\d+)/\1 · (ok|error)")

TWO_PATHS = """import torch
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
a = x * w
b = x.exp()
y = (a + b).sum()
y.backward()
"""

HOOKS = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: g * 2)
y.grad_fn.register_prehook(lambda go: None)
loss = y.sum()
loss.backward()
"""

NAN = """import torch
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
w = (x - x) / (x - x).abs().sum()
loss = w.sum() + x.sum()
loss.backward()
"""

SECOND = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print("first", x.grad)
y.backward()
"""

LOOP = """import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.conv2 = nn.Conv2d(4, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 2 * 2, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))


model = SmallCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.randn(8, 1, 8, 8)
target = torch.randint(0, 3, (8,))
for step in range(3):
    opt.zero_grad()
    loss = F.cross_entropy(model(data), target)
    loss.backward()
    opt.step()
"""


def _entry(page: Page, name: str) -> Any:
    return page.get_by_test_id("node-list").locator(f'[data-node-name="{name}"]')


def _step_until(page: Page, text: str, limit: int = 30) -> None:
    """Press → until the timeline label shows `text` (a step waits for the server's events)."""
    for _ in range(limit):
        if text in page.locator("#tl-label").inner_text():
            return
        before = page.get_by_test_id("status").inner_text()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "p => document.querySelector('[data-testid=status]').textContent !== p", arg=before
        )
    raise AssertionError(f"never reached {text}")


def test_a_finished_run_says_how_to_replay_and_r_then_arrow_replays(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_PATHS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
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


def test_a_leafs_grad_shows_each_path_and_accumulategrad_names_its_leaf(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_PATHS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    # two AccumulateGrad rows, told apart by the leaf each one feeds
    accs = _entry(page, "AccumulateGrad")
    expect(accs).to_have_count(2)
    expect(accs.nth(0)).to_contain_text("→ x")
    expect(accs.nth(1)).to_contain_text("→ w")
    _entry(page, "x").click()
    src = page.get_by_test_id("grad-sources")
    expect(src.locator("li")).to_have_count(2)
    expect(src).to_contain_text("from MulBackward0 (a) · line 4 [0.5000, -1.0000, 2.0000]")
    exp = ", ".join(f"{math.exp(v):.4f}" for v in (1.0, 2.0, 3.0))
    expect(src).to_contain_text(f"from ExpBackward0 (b) · line 5 [{exp}]")
    total = ", ".join(f"{w + math.exp(v):.4f}" for v, w in ((1.0, 0.5), (2.0, -1.0), (3.0, 2.0)))
    inspector = page.get_by_test_id("inspector")
    expect(inspector).to_contain_text(
        f"2 paths reach this leaf: backward sums their gradients (= [{total}])"
    )
    expect(page.get_by_test_id("inspector-grad")).to_have_text(f"[{total}]")
    shot(page, "walk2-grad-sources")


def test_hooks_fire_in_order_with_their_line_marked(page: Page) -> None:
    page.goto("/")
    set_code(page, HOOKS)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    note = page.get_by_test_id("pause-note")
    expect(note).to_contain_text("Paused before the first backward node, SumBackward0 (line 6)")
    page.locator("#graph").click(position={"x": 5, "y": 300})
    _step_until(page, "hook_fired")
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


def test_a_nan_pause_says_where_the_nan_came_from(page: Page) -> None:
    page.goto("/")
    set_code(page, NAN)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").set_checked(True)
    page.get_by_test_id("break-apply").click()
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (nan)")
    note = page.get_by_test_id("pause-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Paused on a NaN gradient before")
    expect(note).to_contain_text("sent by DivBackward0 (line 3)")
    shot(page, "walk2-nan-pause")
    # the NaN flows on: Continue pauses at the next node it reaches, and the note follows
    first = note.inner_text()
    page.get_by_test_id("continue").click()
    expect(note).not_to_have_text(first)
    expect(note).to_contain_text("Paused on a NaN gradient before")
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").set_checked(False)
    page.get_by_test_id("break-apply").click()
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    expect(note).to_be_hidden()


def test_a_second_backward_names_the_call_that_freed_the_graph(page: Page) -> None:
    page.goto("/")
    set_code(page, SECOND)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    fix = page.get_by_test_id("error-fix")
    expect(fix).to_contain_text("The backward call at line 4 already freed")
    expect(fix).to_contain_text("retain_graph=True")
    # with nothing selected the inspector opens on the node backward failed in
    expect(page.get_by_test_id("inspector-following")).to_contain_text("backward failed in")
    expect(page.get_by_test_id("inspector")).to_contain_text("MulBackward0")
    console = page.get_by_test_id("console")
    # print() output stays; library frames fold; the error line wraps instead of running off
    expect(console).to_contain_text("first tensor([2., 4.])")
    expect(console).to_contain_text("inside torch")
    expect(console.locator("details.tb-lib").first).not_to_have_attribute("open", "")
    wide = page.evaluate(
        """() => { const c = document.getElementById('console');
                   return c.scrollWidth - c.clientWidth; }"""
    )
    assert wide <= 1, f"the console scrolls sideways by {wide}px"
    shot(page, "walk2-second-backward")


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_a_training_loop_fits_its_last_pass(page: Page, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto("/")
    set_code(page, LOOP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    # drawn (how soon is bench/bench_frontend.py's to report)
    page.wait_for_function("() => window.__backscope.app.metrics.firstFullFrameAt > 0")
    # the loop is folded: the last iteration is drawn, whole, with the selector saying so
    expect(page.get_by_test_id("iter-label")).to_have_text("iteration 3 / 3")
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    canvas = geo["canvas"]

    def in_view(v: dict[str, float]) -> bool:
        return canvas["y"] <= v["y"] and v["y"] + v["h"] <= canvas["y"] + canvas["h"]

    def by_y(name: str) -> list[dict[str, float]]:
        found = [v for v in geo["vertices"] if v["title"].endswith(name)]
        return sorted(found, key=lambda v: v["y"])

    losses, convs = by_y("NllLossBackward0"), by_y("ConvolutionBackward0")
    assert len(losses) == 1 and len(convs) == 2
    assert all(in_view(v) for v in [*convs, *losses])
    shot(page, f"walk2-training-loop-{size[0]}")


def test_the_status_is_whole_in_a_1280_header_with_a_breakpoint_badge(
    browser: Browser, server: str
) -> None:
    ctx = new_context(browser, server, 1280, 800)
    page = ctx.new_page()
    page.goto("/")
    set_code(page, NAN)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").set_checked(True)
    page.get_by_test_id("break-apply").click()
    press_run(page)
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("paused (nan)")
    box = status.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1280
    clipped = page.evaluate(
        """() => { const s = document.querySelector('[data-testid=status]');
                   return s.scrollHeight - s.clientHeight; }"""
    )
    assert clipped <= 1, f"the status text is cut by {clipped}px"
    shot(page, "walk2-header-1280")
    ctx.close()


def test_a_node_picked_in_the_list_stays_in_view_while_paused(page: Page) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/")
    set_code(page, LOOP)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    page.locator("#graph").click(position={"x": 5, "y": 300})
    page.keyboard.press("ArrowRight")
    for _ in range(4):  # zoomed in, the first conv is far above the node backward is at
        page.locator("#zoom-in").click()
    page.keyboard.press("/")
    page.keyboard.type("Convolution")
    entries = page.get_by_test_id("node-list").locator("li")
    expect(entries).to_have_count(2)
    entries.first.click()
    # a few frames later the view has not snapped back to the current node
    page.wait_for_timeout(300)
    geo: dict[str, Any] = page.evaluate("() => window.__backscope.geometry()")
    picked = page.evaluate("window.__backscope.app.selected")
    v = next(x for x in geo["vertices"] if x["id"] == picked)
    c = geo["canvas"]
    assert c["x"] <= v["x"] and v["x"] + v["w"] <= c["x"] + c["w"], "picked node is off screen"
    assert c["y"] <= v["y"] and v["y"] + v["h"] <= c["y"] + c["h"], "picked node is off screen"
    shot(page, "walk2-jump-while-paused")


def test_a_run_waiting_for_a_worker_says_so_and_starts_when_one_frees(
    browser: Browser, server: str
) -> None:
    with urllib.request.urlopen(server + "/healthz", timeout=10) as r:
        workers = int(json.load(r)["runner"]["max_workers"])
    ctx = new_context(browser, server, 1280, 800)
    pages = [ctx.new_page() for _ in range(workers + 1)]
    # every worker held by a run paused in backward (another tab), then one more run
    for pg in pages:
        pg.goto("/")
        set_code(pg, TWO_PATHS)
        press_run(pg, pause=True)
        if pg is not pages[-1]:
            expect(pg.get_by_test_id("status")).to_contain_text("paused")
    last = pages[-1]
    expect(last.get_by_test_id("status")).to_contain_text("queued: waiting for a free worker")
    shot(last, "walk2-queued")
    pages[0].get_by_test_id("continue").click()
    expect(pages[0].get_by_test_id("status")).to_contain_text(FINISHED)
    expect(last.get_by_test_id("status")).to_contain_text("paused")
    for pg in pages[1:]:
        pg.get_by_test_id("continue").click()
        expect(pg.get_by_test_id("status")).to_contain_text(FINISHED)
    ctx.close()


def test_a_link_shared_while_stepping_back_reopens_at_that_step(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_PATHS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    page.locator("#graph").click(position={"x": 5, "y": 300})
    page.keyboard.press("r")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    where = re.search(r"cursor \d+/\d+", page.get_by_test_id("status").inner_text())
    assert where is not None
    label = page.locator("#tl-label").inner_text()
    page.get_by_test_id("share").click()
    url = page.get_by_test_id("share-url").input_value()
    assert re.search(r"/\?run=[0-9a-f]+&at=\d+$", url)
    page.goto("about:blank")
    page.goto(url)
    expect(page.get_by_test_id("status")).to_contain_text(where.group(0))
    expect(page.locator("#tl-label")).to_have_text(label)
    expect(page.get_by_test_id("queue")).to_contain_text("running AddBackward0")
