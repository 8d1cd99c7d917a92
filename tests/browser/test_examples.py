"""The Examples gallery, in Chromium against the real server: an example picked from the menu
runs, and the page lists every node its run made. (Every example's run, typed into the editor,
is checked for its nodes in the node list by test_value_truth, one example per test.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    examples,
    finished,
    listed_names,
    run_anew,
    shot,
    stored_run,
)

pytestmark = pytest.mark.browser


def test_examples_picked_from_the_menu_run_and_show_their_nodes(page: Page, server: str) -> None:
    page.goto("/")
    gallery = examples(server)
    # the first, and the first of each kind the gallery teaches: a Module, a custom Function
    picked = [gallery[0]]
    for kind in ("Module", "Function"):
        picked.append(next(ex for ex in gallery if kind in ex["title"] and ex not in picked))
    prev: str | None = None
    for ex in picked:
        page.get_by_test_id("examples").select_option(ex["id"])
        assert page.evaluate("() => window.__backscope.app.editor.code") == ex["code"]
        # until the new run has started, the status still shows the previous one's end
        prev = run_anew(page, prev)
        expect(page.get_by_test_id("status")).to_contain_text(finished())
        events = stored_run(server, prev)["events"]
        made = {e["name"].split("::")[-1] for e in events if e["type"] == "node"}
        assert made, f"{ex['id']} made no node"
        # the node list is drawn in the frame that showed the run's end: read it once
        shown = listed_names(page)
        assert made <= shown, f"{ex['id']}: nodes missing from the page: {made - shown}"
        shot(page, f"example-{ex['id']}")


def test_code_typed_before_the_examples_arrive_is_kept(page: Page, server: str) -> None:
    """On a first visit the first example fills the empty editor once the list arrives. A user
    who cleared the editor and began typing before that (a slow network, here the list held
    back until they have cleared it) keeps their code: the example does not replace or join it."""
    held: list[Any] = []
    page.route("**/api/examples", lambda route: held.append(route))
    page.goto("/")
    page.wait_for_function("() => !!window.__backscope")
    for _ in range(2400):  # the page asks for the list as it starts (bounded: WAIT_MS)
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the page never asked for the examples"
    # the user clears the editor to paste; the list arrives; they paste
    page.locator(".cm-content").click()
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    held[0].continue_()
    first = examples(server)[0]
    expect(page.get_by_test_id("examples").locator(f'option[value="{first["id"]}"]')).to_have_count(
        1
    )
    code = "x = 1\nprint(x + 1)\n"
    page.keyboard.insert_text(code)
    assert page.evaluate("() => window.__backscope.app.editor.code") == code
    # and on a first visit left untouched, the first example is loaded, ready to run
    other = page.context.new_page()
    other.goto("/")
    expect(other.get_by_test_id("examples")).to_have_value(first["id"])
    assert other.evaluate("() => window.__backscope.app.editor.code") == first["code"]
