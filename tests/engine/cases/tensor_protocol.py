"""Rows for engine/ops/tensor_protocol.py: the method spelling of where."""

from tests.engine.cases import Case

S = (2, 3)
CASES = [
    Case("where_method", "a.where(a > 0, b)", {"a": S, "b": S}),
]
