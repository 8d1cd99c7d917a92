"""Runs and their links, in Chromium against the real server: a share link reopens its run
(also after a reload, also at the step it was made at), follows a run still going, goes away
with its run, an unknown run's link says so, and a run waiting for a free worker says so until
one frees."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.browser.conftest import (
    entry,
    example_with,
    finished,
    move_cursor,
    new_context,
    press_run,
    run_anew,
    run_id_of,
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


def test_share_link_reopens_the_run_after_reload(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(example_with(server, "class Exp(Function)"))
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished())
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-url")
    expect(link).to_have_value(re.compile(r"/\?run=[0-9a-f]+$"))
    url = link.input_value()
    page.goto("about:blank")
    page.goto(url)
    expect(page.get_by_test_id("status")).to_contain_text(finished())
    expect(entry(page, "a").first).to_contain_text("2.7183")
    expect(page.get_by_test_id("editor")).to_contain_text("class Exp(Function)")
    page.reload()
    expect(entry(page, "ExpBackward").first).to_be_visible()
    shot(page, "share-reopened")


def test_a_link_to_a_run_still_going_shows_it_and_follows_it_to_the_end(page: Page) -> None:
    code = 'import time\nprint("first", flush=True)\ntime.sleep(2)\nprint("second")\n'
    page.goto("/")
    set_code(page, code)
    press_run(page)
    page.wait_for_function("() => new URLSearchParams(location.search).get('run') !== null")
    other = page.context.new_page()
    other.goto(page.url)  # the log so far (read over HTTP), then the rest as it comes (the socket)
    expect(other.get_by_test_id("console")).to_contain_text("first")
    expect(other.get_by_test_id("status")).to_contain_text(finished())
    expect(other.get_by_test_id("console")).to_contain_text("first\nsecond")
    other.close()


def test_a_share_link_goes_away_with_its_run(page: Page) -> None:
    page.goto("/")
    set_code(page, HOOKS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-url")
    expect(link).to_be_visible()
    first = link.input_value()
    run_anew(page, run_id_of(page))
    expect(link).to_be_hidden()
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    page.get_by_test_id("share").click()
    expect(link).to_be_visible()
    expect(link).not_to_have_value(first)


def test_a_link_shared_while_stepping_back_reopens_at_that_step(page: Page) -> None:
    page.goto("/")
    set_code(page, TWO_PATHS)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    page.locator("#graph").click(position={"x": 5, "y": 300})
    move_cursor(page, lambda: page.keyboard.press("r"))
    for _ in range(3):  # each step shown before the next: what is read below is the third's
        move_cursor(page, lambda: page.keyboard.press("ArrowRight"))
    expect(page.locator("#tl-label")).to_contain_text("node_enter")
    # the status and the label are drawn in one frame, and the cursor has stopped moving
    where = re.search(r"cursor \d+/\d+", page.get_by_test_id("status").inner_text())
    assert where is not None
    label = page.locator("#tl-label").inner_text()
    page.get_by_test_id("share").click()
    link = page.get_by_test_id("share-url")
    expect(link).to_have_value(re.compile(r"/\?run=[0-9a-f]+&at=\d+$"))
    url = link.input_value()
    page.goto("about:blank")
    page.goto(url)
    expect(page.get_by_test_id("status")).to_contain_text(where.group(0))
    expect(page.locator("#tl-label")).to_have_text(label)
    expect(page.get_by_test_id("queue")).to_contain_text("running AddBackward0")


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
    expect(pages[0].get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    expect(last.get_by_test_id("status")).to_contain_text("paused")
    for pg in pages[1:]:
        pg.get_by_test_id("continue").click()
        expect(pg.get_by_test_id("status")).to_contain_text(finished("ok", "error"))
    ctx.close()
