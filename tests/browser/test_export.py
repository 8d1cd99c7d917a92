"""Exports, in Chromium against the real server: the graph as SVG and PNG, the run as JSON
(every event, numbered densely from 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import example_with, finished, press_run

pytestmark = pytest.mark.browser


def test_exports_svg_png_and_json(page: Page, server: str) -> None:
    page.goto("/")
    page.get_by_test_id("examples").select_option(example_with(server, "class Exp(Function)"))
    press_run(page)
    expect(page.get_by_test_id("status")).to_contain_text(finished())
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
