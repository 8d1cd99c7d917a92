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
