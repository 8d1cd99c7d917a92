"""The debugger's extra controls in Chromium against the real server: op/NaN breakpoints, a
dropped websocket, full values of large tensors, non-leaf tensors, parameters, help, layout."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import new_context, press_run, set_code, shot, stored_run

pytestmark = pytest.mark.browser

FINISHED = re.compile(r"(\d+) events · cursor (\d+)/\1 · (ok|error|timeout|limit|killed|stopped)")


def _current(page: Page) -> Any:
    return page.get_by_test_id("node-list").locator('[aria-current="step"]')


OPS = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
z = y * x
w = (z * 2).sum()
w.backward()
print(x.grad)
"""


def test_op_breakpoint_pauses_at_the_first_mul(page: Page) -> None:
    page.goto("/")
    set_code(page, OPS)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-op").fill("MulBackward0")
    page.get_by_test_id("break-apply").click()
    expect(page.get_by_test_id("breakpoints")).to_contain_text("1")
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (breakpoint)")
    expect(_current(page)).to_have_attribute("data-node-name", "MulBackward0")
    # backward reaches `z * 2` first: its node is the later MulBackward0 (line 6)
    expect(_current(page)).to_contain_text("L6")
    shot(page, "op-breakpoint")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text("paused (breakpoint)")
    expect(_current(page)).to_contain_text("L5")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)


NAN = """import torch

x = torch.tensor([0.0, 1.0], requires_grad=True)
y = x.sqrt()
z = (y * 0).sum()
z.backward()
print(x.grad)
"""


def test_nan_breakpoint_pauses_where_a_nan_gradient_appears(page: Page) -> None:
    page.goto("/")
    set_code(page, NAN)
    page.get_by_test_id("breakpoints").click()
    page.get_by_test_id("break-nan").check()
    page.get_by_test_id("break-apply").click()
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text("paused (nan)")
    page.get_by_test_id("continue").click()
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    # what PyTorch prints: d/dx sqrt(x) * 0 at 0 is inf * 0 = nan
    expect(page.get_by_test_id("console")).to_contain_text("tensor([nan, 0.])")


CHAIN = """import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x
for i in range(300):
    y = y * 1.001
y.sum().backward()
print(x.grad)
"""


def _kill_socket(page: Page) -> None:
    page.evaluate("() => window.__backscope.app.conn.ws?.close()")


def test_dropped_socket_resumes_without_gaps_or_duplicates(page: Page, server: str) -> None:
    page.goto("/")
    set_code(page, CHAIN)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    _kill_socket(page)
    for _ in range(3):
        page.get_by_test_id("step").click()
    expect(_current(page)).to_have_count(1)
    page.get_by_test_id("continue").click()
    # and once more while the rest of backward streams in
    _kill_socket(page)
    status = page.get_by_test_id("status")
    expect(status).to_contain_text(FINISHED)
    run_id = page.evaluate("() => new URLSearchParams(location.search).get('run')")
    stored = stored_run(server, run_id)["events"]
    seqs = page.evaluate("() => window.__backscope.app.log.events.map(e => e.seq)")
    assert seqs == list(range(len(stored)))
    m = FINISHED.search(status.inner_text())
    assert m and int(m.group(1)) == len(stored)
    expect(page.get_by_test_id("console")).to_contain_text("tensor([1.3497, 1.3497])")


# above the server's per-tensor limit for values sent with the run (65,536 elements): only a
# summary comes, and the full values (in two chunks) load on request while paused
BIG = """import torch

torch.manual_seed(0)
w = torch.randn(70_000, requires_grad=True)
h = w * 2
loss = h.sum()
loss.backward()
"""


def test_full_values_of_a_large_tensor_load_while_paused(page: Page) -> None:
    page.goto("/")
    set_code(page, BIG)
    press_run(page, pause=True)
    expect(page.get_by_test_id("status")).to_contain_text("paused")
    page.get_by_test_id("node-list").locator('[data-node-name="w"]').first.click()
    insp = page.get_by_test_id("inspector")
    insp.get_by_test_id("load-values").click()
    # the loaded values replace w's summary: no button left, every element shown
    expect(insp.get_by_test_id("load-values")).to_have_count(0)
    page.wait_for_function(
        """() => { const s = window.__backscope.app.log.state();
        const t = [...s.tensors.values()].find(t => t.name === 'w');
        return window.__backscope.shown(t.id).flat !== null; }"""
    )
    got = page.evaluate(
        """() => {
        const s = window.__backscope.app.log.state();
        const t = [...s.tensors.values()].find(t => t.name === 'w');
        const full = window.__backscope.shown(t.id).flat;
        return {n: full.length, min: full.reduce((a, b) => Math.min(a, b)),
                max: full.reduce((a, b) => Math.max(a, b)),
                smin: t.value.stats.min, smax: t.value.stats.max};
    }"""
    )
    # the full values (folded into w's version by the reducer) agree with the exact stats the
    # tracer sent with the summary
    assert got["n"] == 70_000
    assert got["min"] == pytest.approx(got["smin"]) and got["max"] == pytest.approx(got["smax"])
    shot(page, "full-values")


MLP = """import torch
import torch.nn as nn

net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
x = torch.ones(2, 3)
h = net(x)
loss = h.sum()
loss.backward()
"""


def test_parameters_and_non_leaf_tensors_are_named(page: Page, server: str) -> None:
    page.goto("/")
    set_code(page, MLP)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    names = page.get_by_test_id("node-list").locator("[data-node-name]")
    shown = set(names.evaluate_all("els => els.map(e => e.dataset.nodeName)"))
    run_id = page.evaluate("() => new URLSearchParams(location.search).get('run')")
    events = stored_run(server, run_id)["events"]
    linears = [e["module_path"] for e in events if e.get("name") == "AddmmBackward0"]
    assert len(linears) == 2
    # parameters are named as named_parameters() names them, never just "tensor"
    assert "tensor" not in shown, shown
    assert {"0.weight", "0.bias", "2.weight", "2.bias"} <= shown, shown
    loss = page.get_by_test_id("node-list").locator('[data-node-name="SumBackward0"]').first
    expect(loss.locator(".nl-label")).to_have_text("loss")
    loss.click()
    expect(page.get_by_test_id("inspector")).to_contain_text("non-leaf")
    shot(page, "mlp-named")


def test_first_run_hint_help_and_layouts(browser: Browser, server: str) -> None:
    errors: list[str] = []
    for w, h in ((1280, 800), (1920, 1080)):
        ctx = new_context(browser, server, w, h)
        pg = ctx.new_page()
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto("/")
        expect(pg.locator("#first-hint")).to_be_visible()
        expect(pg.get_by_test_id("editor")).to_contain_text("import torch")
        shot(pg, f"first-run-{w}")
        pg.keyboard.press("?")
        expect(pg.locator("#help-dlg")).to_be_visible()
        pg.keyboard.press("Escape")
        expect(pg.locator("#help-dlg")).to_be_hidden()
        pg.get_by_test_id("run").click()
        expect(pg.get_by_test_id("status")).to_contain_text(FINISHED)
        expect(pg.locator("#first-hint")).to_be_hidden()
        # every toolbar control stays on screen
        for tid in ("run", "step", "continue", "share", "export-json", "status", "breakpoints"):
            box = pg.get_by_test_id(tid).bounding_box()
            assert box is not None and box["x"] + box["width"] <= w, tid
        status = pg.get_by_test_id("status").bounding_box()
        assert status is not None and status["width"] >= 150
        shot(pg, f"run-{w}")
        ctx.close()
    assert not errors, errors
