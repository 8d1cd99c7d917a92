"""The engine badge: a run of pasted code says it ran on backscope's engine (a run recorded from
real PyTorch says PyTorch x.y: tests/torch/test_page.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import press_run, set_code

pytestmark = pytest.mark.browser


CODE = "import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n"


def test_a_sandbox_run_says_backscope_engine(page: Page) -> None:
    page.goto("/")
    badge = page.get_by_test_id("engine")
    expect(badge).to_be_hidden()  # no run yet
    set_code(page, CODE)
    press_run(page)
    expect(badge).to_have_text("backscope engine")
    expect(badge).to_have_attribute("data-engine", "backscope")
    expect(badge).to_have_attribute("title", re.compile("NumPy autograd engine"))
