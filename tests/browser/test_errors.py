"""The page in headless Chromium against the real server: what a person sees and clicks."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import press_run, set_code, shot, stored_run

pytestmark = pytest.mark.browser

FINISHED = re.compile(r"events · cursor (\d+)/\1 · (ok|error|timeout|limit|killed|stopped)")


def _examples(server: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(server + "/api/examples", timeout=10) as r:
        data: list[dict[str, Any]] = json.load(r)
    return data


def _click_and_wait(page: Page, testid: str) -> None:
    """Click a control and wait until the status line (events, cursor) changes."""
    before = page.get_by_test_id("status").inner_text()
    page.get_by_test_id(testid).click()
    page.wait_for_function(
        "prev => document.querySelector('[data-testid=status]').textContent !== prev",
        arg=before,
    )


def _entry(page: Page, name: str) -> Any:
    return page.get_by_test_id("node-list").locator(f'[data-node-name="{name}"]').first


def _exp_example(server: str) -> dict[str, Any]:
    return next(e for e in _examples(server) if "class Exp(Function)" in e["code"])


def test_each_example_shows_its_nodes(page: Page, server: str) -> None:
    page.goto("/")
    examples = _examples(server)
    prev: str | None = None
    for i, ex in enumerate(examples):
        page.get_by_test_id("examples").select_option(ex["id"])
        press_run(page)
        # until the new run has started, the status still shows the previous one's end
        page.wait_for_function(
            """prev => { const r = new URLSearchParams(location.search).get('run');
                        return r !== null && r !== prev; }""",
            arg=prev,
        )
        expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
        run_id = page.evaluate("() => new URLSearchParams(location.search).get('run')")
        prev = run_id
        events = stored_run(server, run_id)["events"]
        made = {e["name"].split("::")[-1] for e in events if e["type"] == "node"}
        shown = set(
            page.get_by_test_id("node-list")
            .locator("[data-node-name]")
            .evaluate_all("els => els.map(e => e.dataset.nodeName)")
        )
        assert made <= shown, f"{ex['id']}: nodes missing from the page: {made - shown}"
        if i == 0 or "Module" in ex["title"] or "Function" in ex["title"]:
            shot(page, f"example-{ex['id']}")


def test_exp_function_steps_until_a_grad_and_back(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(_exp_example(server)["id"])
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    shot(page, "exp-paused")
    a = _entry(page, "a")
    seen_current: set[str] = set()
    for _ in range(12):
        if "2.7183" in a.inner_text():
            break
        _click_and_wait(page, "step")
        # read in one go: the list re-renders between a count() and a get_attribute()
        name = page.evaluate(
            """() => document.querySelector('[data-testid=node-list] [aria-current="step"]')
                ?.getAttribute('data-node-name') || ''"""
        )
        if name:
            seen_current.add(name)
    expect(a).to_contain_text("2.7183")
    assert {"ExpBackward", "AccumulateGrad"} <= seen_current
    a.click()
    expect(page.get_by_test_id("inspector")).to_contain_text("2.7183")
    shot(page, "exp-a-grad")
    _click_and_wait(page, "step-back")
    expect(a).not_to_contain_text("2.7183")
    # stepped back before AccumulateGrad: no .grad shown, and the inspector says why
    expect(page.get_by_test_id("inspector-grad")).to_have_count(0)
    expect(page.get_by_test_id("grad-none")).to_have_text("backward has not reached it yet")
    shot(page, "exp-step-back")


BREAK_CODE = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
z = y.exp()
w = z.sum()
w.backward()
print(x.grad)
"""


def test_line_breakpoint_pauses_at_that_lines_node(page: Page) -> None:
    page.goto("/")
    set_code(page, BREAK_CODE)
    line5 = page.locator(".cm-lineNumbers .cm-gutterElement").filter(has_text=re.compile(r"^5$"))
    line5.click()
    expect(page.locator(".cm-bp")).to_have_count(1)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (breakpoint)")
    current = page.get_by_test_id("node-list").locator('[aria-current="step"]')
    expect(current).to_have_attribute("data-node-name", "ExpBackward0")
    shot(page, "breakpoint")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    expect(page.get_by_test_id("console")).to_contain_text("tensor([ 60.2566, 1210.2864])")


HOOK_CODE = """import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print("hook saw", g))
loss = y.pow(2).sum()
loss.backward()
print(x.grad)
"""


def test_hook_lights_up_when_it_fires(page: Page) -> None:
    page.goto("/")
    set_code(page, HOOK_CODE)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    mul = _entry(page, "MulBackward0")
    expect(mul).to_have_attribute("data-hook", "idle")
    for _ in range(12):
        if mul.get_attribute("data-hook") == "fired":
            break
        _click_and_wait(page, "step")
    expect(mul).to_have_attribute("data-hook", "fired")
    expect(page.get_by_test_id("console")).to_contain_text("hook saw tensor([ 6., 12., 18.])")
    shot(page, "hook-fired")


SECOND_BACKWARD = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
"""

INPLACE = """import torch

x = torch.ones(3, requires_grad=True)
y = x * 2
z = y.exp()
z.add_(1)
out = z.sum()
out.backward()
"""


def _error_line_text(page: Page) -> str:
    return page.locator(".cm-line-error").inner_text()


def test_second_backward_shows_the_error_and_keeps_the_graph(page: Page) -> None:
    page.goto("/")
    set_code(page, SECOND_BACKWARD)
    press_run(page)
    banner = page.get_by_test_id("error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("RuntimeError")
    expect(banner).to_contain_text("Trying to backward through the graph a second time")
    expect(banner).to_contain_text("line 6")
    # the editor marks the line on its next update, not with the banner: wait for it
    expect(page.locator(".cm-line").nth(5)).to_have_class(re.compile(r"\bcm-line-error\b"))
    expect(page.locator(".cm-line-error")).to_have_count(1)  # the second y.backward(), line 6
    expect(_entry(page, "MulBackward0")).to_contain_text("freed")
    shot(page, "error-second-backward")


def test_inplace_error_points_at_the_line_that_bumped_the_version(page: Page) -> None:
    page.goto("/")
    set_code(page, INPLACE)
    press_run(page)
    banner = page.get_by_test_id("error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("modified by an inplace operation")
    expect(banner).to_contain_text("modified in place at line 6")
    assert _error_line_text(page) == "z.add_(1)"
    expect(_entry(page, "ExpBackward0")).to_be_visible()
    shot(page, "error-inplace")


def test_share_link_reopens_the_run_after_reload(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(_exp_example(server)["id"])
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    page.get_by_test_id("share").click()
    url = page.get_by_test_id("share-url").input_value()
    assert re.search(r"/\?run=[0-9a-f]+$", url)
    page.goto("about:blank")
    page.goto(url)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    expect(_entry(page, "a")).to_contain_text("2.7183")
    expect(page.get_by_test_id("editor")).to_contain_text("class Exp(Function)")
    page.reload()
    expect(_entry(page, "ExpBackward")).to_be_visible()
    shot(page, "share-reopened")


def test_exports_and_timeline_scrub(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(_exp_example(server)["id"])
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    with page.expect_download() as svg:
        page.get_by_test_id("export-svg").click()
    text = Path(svg.value.path()).read_text()
    assert text.startswith("<svg") and "ExpBackward" in text
    with page.expect_download() as png:
        page.get_by_test_id("export-png").click()
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with page.expect_download() as js:
        page.get_by_test_id("export-json").click()
    run = json.loads(Path(js.value.path()).read_text())
    assert [e["seq"] for e in run["events"]] == list(range(len(run["events"])))
    # scrub the timeline to the start of backward: no gradient yet; Home/End keys move too
    start = next(e["seq"] for e in run["events"] if e["type"] == "backward_started")
    page.get_by_test_id("timeline").fill(str(start))
    expect(_entry(page, "a")).not_to_contain_text("2.7183")
    expect(page.get_by_test_id("status")).to_contain_text(f"cursor {start + 1}/")
    page.locator("body").press("End")
    expect(_entry(page, "a")).to_contain_text("2.7183")


ANOMALY = """import torch

x = torch.tensor([-1.0, 4.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    y = x.sqrt()
    z = y.sum()
    z.backward()
"""


def test_anomaly_error_points_at_the_forward_line(page: Page) -> None:
    page.goto("/")
    set_code(page, ANOMALY)
    press_run(page)
    banner = page.get_by_test_id("error")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("returned nan values")
    expect(banner).to_contain_text("forward line 5 made the NaN")
    assert _error_line_text(page).strip() == "y = x.sqrt()"
    shot(page, "error-anomaly")


def test_keyboard_steps_through_a_finished_run(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(_exp_example(server)["id"])
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    body = page.locator("body")
    body.press("r")  # rewind to just before backward
    expect(_entry(page, "a")).not_to_contain_text("2.7183")
    body.press("ArrowRight")
    current = page.get_by_test_id("node-list").locator('[aria-current="step"]')
    expect(current).to_have_attribute("data-node-name", "ExpBackward")
    for _ in range(4):
        body.press("ArrowRight")
    expect(_entry(page, "a")).to_contain_text("2.7183")
    # the tracer reports grad_accumulated while AccumulateGrad runs, as PyTorch writes .grad:
    # one step back (its node_exit) .grad is already there, two (its node_enter) it is not yet
    body.press("ArrowLeft")
    expect(page.locator("#tl-label")).to_contain_text("node_exit")
    expect(_entry(page, "a")).to_contain_text("2.7183")
    body.press("ArrowLeft")
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    expect(_entry(page, "a")).not_to_contain_text("2.7183")
