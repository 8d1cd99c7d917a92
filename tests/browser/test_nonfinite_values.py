"""NaN and Inf in the inspector, in Chromium against the real server: counted beside the
stats (which are over the finite elements) and flagged, for inline values and for a large
tensor's summary, at the version current at the cursor."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import finished, press_run, set_code, shot

pytestmark = pytest.mark.browser

FINISHED = finished("ok")

CODE = """import torch
x = torch.tensor([float('nan'), 2.])
rows = [[float("nan") if i < 5 else float(10 * i + j) for j in range(10)] for i in range(10)]
rows[9][9] = float("inf")
big = torch.tensor(rows)
print(x.max(), big.isnan().sum(), big.isinf().sum(), big.nan_to_num(0, 0, 0).max())
"""


def test_nan_and_inf_are_counted_and_flagged(page: Page) -> None:
    page.goto("/")
    set_code(page, CODE)
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(FINISHED)
    nodes = page.get_by_test_id("node-list")
    nodes.locator('[data-node-name="x"]').click()
    stats = page.get_by_test_id("inspector-value").get_by_test_id("value-stats")
    # tensor([nan, 2.]): one NaN, and min/max of the finite element (today: min 2 max 2 alone)
    expect(stats.get_by_test_id("value-nan")).to_have_text("NaN ×1")
    # PyTorch's x.max() is nan here: the page says on its face that min 2 is of the finite ones
    # (before: only in a tooltip, the row read "NaN ×1 min 2 max 2 … norm 2")
    expect(stats.get_by_test_id("value-finite")).to_have_text("finite elements:")
    expect(stats).to_contain_text("min 2")
    expect(page.get_by_test_id("inspector-value").locator("table.vals td")).to_have_text(
        ["nan", "2."]
    )
    shot(page, "nonfinite-inline")
    # a 100-element tensor arrives as a summary: 50 NaN, one inf, the finite ones 50..98
    expect(page.get_by_test_id("console")).to_contain_text("tensor(50) tensor(1) tensor(98.)")
    nodes.locator('[data-node-name="big"]').click()
    stats = page.get_by_test_id("inspector-value").get_by_test_id("value-stats")
    expect(stats.get_by_test_id("value-nan")).to_have_text("NaN ×50")
    expect(stats.get_by_test_id("value-inf")).to_have_text("Inf ×1")
    expect(stats.get_by_test_id("value-finite")).to_be_visible()
    expect(stats).to_contain_text("min 50")
    expect(stats).to_contain_text("max 98")
    shot(page, "nonfinite-summary")
