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


# fixtures that start something once for several tests (a server process, a sandbox): their
# tests should run on one worker, so it starts once
_SHARED_SCOPES = frozenset({"module", "package", "class"})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under `--dist loadgroup` (make test), the tests of a file that starts something at module
    scope (a server process, a sandbox) go to one worker together, so it starts once per file.
    Every other test goes to whichever worker is free: the engine's thousands of op cases in
    one file, and the browser tests, which share one server and one Chromium per worker
    (package fixtures, under tests/browser) so that the long ones (an example per test)
    spread over all the workers."""
    shared: set[str] = set()
    for item in items:
        if "browser" in item.path.parts:
            continue
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(d[-1].scope in _SHARED_SCOPES for d in defs if d):
            shared.add(item.nodeid.split("::")[0])
    for item in items:
        path = item.nodeid.split("::")[0]
        if path in shared:
            item.add_marker(pytest.mark.xdist_group(path))
