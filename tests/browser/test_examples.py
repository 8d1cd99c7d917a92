"""The Examples gallery, in Chromium against the real server: every example picked from the
menu runs, and the page lists every node its run made."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import examples, finished, listed_names, run_anew, shot, stored_run

pytestmark = pytest.mark.browser


def test_each_example_shows_its_nodes(page: Page, server: str) -> None:
    page.goto("/")
    prev: str | None = None
    for i, ex in enumerate(examples(server)):
        page.get_by_test_id("examples").select_option(ex["id"])
        # until the new run has started, the status still shows the previous one's end
        prev = run_anew(page, prev)
        expect(page.get_by_test_id("status")).to_contain_text(finished())
        events = stored_run(server, prev)["events"]
        made = {e["name"].split("::")[-1] for e in events if e["type"] == "node"}
        # the node list is drawn in the frame that showed the run's end: read it once
        shown = listed_names(page)
        assert made <= shown, f"{ex['id']}: nodes missing from the page: {made - shown}"
        if i == 0 or "Module" in ex["title"] or "Function" in ex["title"]:
            shot(page, f"example-{ex['id']}")
