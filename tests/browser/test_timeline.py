"""The timeline, in Chromium against the real server: scrubbing it moves the cursor (the values
shown follow), and Home/End jump to either end."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import entry, example_with, finished, press_run, run_id_of, stored_run

pytestmark = pytest.mark.browser


def test_scrubbing_to_the_start_of_backward_and_end_moves_the_values(
    page: Page, server: str
) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(example_with(server, "class Exp(Function)"))
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished())
    events = stored_run(server, run_id_of(page))["events"]
    # scrub the timeline to the start of backward: no gradient yet; Home/End keys move too
    start = next(e["seq"] for e in events if e["type"] == "backward_started")
    page.get_by_test_id("timeline").fill(str(start))
    expect(entry(page, "a").first).not_to_contain_text("2.7183")
    expect(page.get_by_test_id("status")).to_contain_text(f"cursor {start + 1}/")
    page.locator("body").press("End")
    expect(entry(page, "a").first).to_contain_text("2.7183")
