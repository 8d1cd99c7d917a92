"""Shared fixtures: every test starts from the engine's default global state."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine.harness import reset_engine


@pytest.fixture(autouse=True)
def _fresh_engine_state() -> Iterator[None]:
    """Grad mode, inference mode, anomaly, default dtype and print options reset around a test."""
    reset_engine()
    yield
    reset_engine()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (make test), a file's tests go to one worker together, so module
    fixtures (a server process, a sandbox) start once per file, except the browser tests: they
    share one server and one Chromium per worker (package fixtures), so each goes to whichever
    worker is free, and the long ones (an example per test) spread over all of them."""
    for item in items:
        if "browser" not in item.path.parts:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
