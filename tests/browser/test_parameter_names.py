"""named_parameters() names everywhere, in Chromium against the real server: every parameter
is listed under its named_parameters() name (no "Net.conv2 param 8×4×3×3" stand-ins, no two
alike), also one touched in place before its module first ran, and a non-leaf tensor under its
variable's name."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, run_id_of, set_code, shot, stored_run

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

NET = """import torch
import torch.nn as nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.bn2 = nn.BatchNorm2d(8)

    def forward(self, x):
        return self.bn2(self.conv2(self.conv1(x)))

net = Net()
with torch.no_grad():
    net.conv2.weight.mul_(0.5)
out = net(torch.ones(1, 1, 8, 8)).sum()
out.backward()
print(sorted(n for n, _ in net.named_parameters()))
"""


def test_parameters_carry_their_named_parameters_names(page: Page) -> None:
    page.goto("/")
    set_code(page, NET)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    console = page.get_by_test_id("console")
    expect(console).to_contain_text("conv1.bias")
    names = re.findall(r"'([\w.]+)'", console.inner_text())
    assert len(names) == 6, names
    leaves = page.get_by_test_id("node-list").locator("li.kind-leaf")
    shown = leaves.evaluate_all("els => els.map(e => e.dataset.nodeName)")
    assert sorted(shown) == sorted(names), shown
    page.get_by_test_id("node-list").locator('[data-node-name="bn2.bias"]').click()
    expect(page.get_by_test_id("inspector").locator(".insp-name")).to_have_text("bn2.bias")
    # the AccumulateGrad rows say which parameter each feeds
    feeds = page.get_by_test_id("node-list").locator(".nl-var").all_inner_texts()
    assert sorted(f.removeprefix("→ ") for f in feeds) == sorted(names), feeds
    shot(page, "parameter-names")


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
    events = stored_run(server, run_id_of(page))["events"]
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
