"""The engine's own packages must not shadow names of PyTorch's namespace.

Importing a subpackage binds it as an attribute of `engine` (= `torch` in a snippet): a package
called `trace` turned `torch.trace(x)` into a module once the tracer was loaded.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import types
from pathlib import Path

import engine

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "torch_names.json"


def test_no_engine_module_replaces_a_torch_function_or_class() -> None:
    torch_names = set(json.loads(FIXTURE.read_text())["non_module_names"])
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(info.name)
    clashes = [
        name
        for name, value in vars(engine).items()
        if isinstance(value, types.ModuleType) and name in torch_names
    ]
    assert clashes == [], f"engine modules shadow torch functions: {clashes}"
    assert callable(engine.trace)
