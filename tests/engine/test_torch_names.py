"""Engine modules answer under their torch names, without losing CPython's import fallback."""

from __future__ import annotations

import sys
import types

import pytest

import engine  # noqa: F401  (the package whose modules are torch-named)
from engine._torch_names import TorchNamed


def test_from_import_finds_a_submodule_not_yet_bound_and_names_torch_when_missing() -> None:
    pkg = types.ModuleType("engine._probe_pkg")
    pkg.__class__ = TorchNamed
    sub = types.ModuleType("engine._probe_pkg.sub")  # imported, not yet an attribute (a cycle)
    sys.modules.update({pkg.__name__: pkg, sub.__name__: sub})
    try:
        from engine._probe_pkg import sub as found  # type: ignore[import-not-found]

        assert found is sub
        with pytest.raises(ImportError, match=r"cannot import name 'nope' from 'torch\._probe"):
            from engine._probe_pkg import nope  # type: ignore[import-not-found]  # noqa: F401
        with pytest.raises(AttributeError, match=r"module 'torch\._probe_pkg' has no attribute"):
            _ = pkg.nope
    finally:
        for name in (pkg.__name__, sub.__name__):
            sys.modules.pop(name, None)
