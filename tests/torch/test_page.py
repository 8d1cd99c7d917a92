"""The page, in Chromium, on a real-torch run: `backscope run --torch` serves it; the badge says
PyTorch (with the limits of a real-torch run in its title), Step moves the real backward one
node at a time, Continue runs it to the end, and the console shows what the script printed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, WAIT_MS, new_context, shot
from tests.torch.live import run_torch

pytestmark = pytest.mark.browser
FINISHED = re.compile(r"(\d+) events · cursor (\d+)/\1 · ok")
SCRIPT = """\
import torch
from torch import nn
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
x = torch.randn(5, 3)
loss = net(x).pow(2).mean()
loss.backward()
print("grad norm", round(float(net[0].weight.grad.norm()), 4))
"""


def test_page_steps_a_real_torch_run(tmp_path: Path) -> None:
    with (
        run_torch(tmp_path, SCRIPT, "--pause-backward") as (base, run_id, _),
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        ctx = new_context(browser, base)
        expect.set_options(timeout=WAIT_MS)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"/?run={run_id}")
        badge = page.get_by_test_id("engine")
        expect(badge).to_have_text(re.compile(r"^PyTorch \d+\.\d+"))
        expect(badge).to_have_attribute("title", re.compile("drawn as they are discovered"))
        status = page.get_by_test_id("status")
        expect(status).to_contain_text("paused")
        current = page.get_by_test_id("node-list").locator('[aria-current="step"]')
        expect(current).to_have_count(1)
        first = current.inner_text()
        page.get_by_test_id("step").click()
        expect(current).not_to_have_text(first)
        shot(page, "real_torch_stepping")
        page.get_by_test_id("continue").click()
        expect(status).to_contain_text(FINISHED)
        expect(page.get_by_test_id("console")).to_contain_text("grad norm")
        ctx.close()
        browser.close()
        assert not errors, errors
