"""Tensor's typed surface (engine/_tensor_surface.pyi), torch.*'s (engine/_torch_surface.pyi)
and torch.return_types' (engine/return_types.pyi): generated from what the engine binds and
makes at import, fresh, and naming only what the runtime has."""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import engine
from engine import return_types
from engine._tensor import Tensor
from engine.ops.table import rows

ROOT = Path(__file__).resolve().parents[2]
SURFACE = ROOT / "engine" / "_tensor_surface.pyi"
TORCH_SURFACE = ROOT / "engine" / "_torch_surface.pyi"
RETURN_TYPES = ROOT / "engine" / "return_types.pyi"
sys.path.insert(0, str(ROOT / "tools"))

import gen_tensor_surface  # noqa: E402


def _stub_members() -> set[str]:
    tree = ast.parse(SURFACE.read_text(encoding="utf-8"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    return {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}


def test_generated_surface_is_fresh() -> None:
    committed = SURFACE.read_text(encoding="utf-8")
    assert committed == gen_tensor_surface.generate(), "run: python tools/gen_tensor_surface.py"


def test_generated_torch_surface_is_fresh() -> None:
    committed = TORCH_SURFACE.read_text(encoding="utf-8")
    assert committed == gen_tensor_surface.generate_torch(), (
        "run: python tools/gen_tensor_surface.py"
    )


def test_torch_surface_names_what_the_engine_binds() -> None:
    tree = ast.parse(TORCH_SURFACE.read_text(encoding="utf-8"))
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert len(imports) > 250
    for node in imports:
        assert node.module is not None
        source = sys.modules[node.module]
        for alias in node.names:
            # out_params wraps some (functools.wraps) to add `out=`
            bound = inspect.unwrap(getattr(engine, alias.name))
            assert bound is getattr(source, alias.name), alias.name


def test_every_stub_member_is_bound_on_the_runtime_tensor() -> None:
    members = _stub_members()
    assert len(members) > 300
    missing = sorted(m for m in members if m not in vars(Tensor))
    assert missing == []


def test_every_op_table_method_is_in_the_stub() -> None:
    members = _stub_members()
    table = [op for _, op in rows(engine._OP_TABLE)]
    bound = {op.name for op in table if op.method} | {op.name + "_" for op in table if op.inplace}
    assert sorted(bound - members) == []


def test_the_runtime_class_does_not_inherit_the_surface() -> None:
    assert Tensor.__bases__ == (object,)


def test_generated_return_types_are_fresh() -> None:
    committed = RETURN_TYPES.read_text(encoding="utf-8")
    assert committed == gen_tensor_surface.generate_return_types(), (
        "run: python tools/gen_tensor_surface.py"
    )


def test_return_types_stub_fields_are_the_runtime_fields() -> None:
    tree = ast.parse(RETURN_TYPES.read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name != "_StructSeq"]
    assert len(classes) >= 20
    for cls in classes:
        fields = tuple(n.name for n in cls.body if isinstance(n, ast.FunctionDef))
        assert fields == getattr(return_types, cls.name)._field_names, cls.name
    sort = engine.tensor([3.0, 1.0]).sort()
    assert isinstance(sort, return_types.sort) and sort.indices.tolist() == [1, 0]
