"""The op table's row: one op and every way PyTorch's surface reaches it.

Each op family module ends with `OPS`, its rows; engine/__init__.py collects the families in
one fixed order (`collect`), and everything that needs the surface reads the table: the binder
(engine/_methods.py: `Tensor.<name>`, `Tensor.<name>_`, operators, `torch.<name>`, `out=`,
`torch.<name>_`), the profiler's op list, the generated stubs (tools/gen_tensor_surface.py) and
the op tests (tests/engine/test_op_table.py). A later row binding a name an earlier row bound
wins, as a later definition would.

>>> Op("exp", exp, inplace=True, out=True)  # x.exp(), x.exp_(), torch.exp(x, out=y)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True, slots=True)
class Op:
    """One row. `fn` is the forward (`Tensor.<name>` and `torch.<name>` both call it; a
    property for an attribute such as `x.mT`).

    method: bound as `Tensor.<name>`; function: as `torch.<name>`; inplace: `Tensor.<name>_`
    made from `fn` by engine/ops/inplace.py; inplace_function: `torch.<name>_(t, ...)` calls
    `t.<name>_(...)` (`torch.<name>` when the row's own name is in-place, as `fill_`); out:
    `torch.<name>` takes PyTorch's `out=`; operators: Tensor dunders bound to the method,
    inplace_operators: dunders bound to the in-place method (`__iadd__`); inplace_graph:
    `(copy of self, other, out) -> out` recording the node PyTorch gives the in-place form
    where the out-of-place op records none (`x.gt_(0)`); inplace_check: `(self, out)` raising
    PyTorch's refusal of the in-place form (float_power_ on a non-double base).
    """

    name: str
    fn: Any
    method: bool = True
    function: bool = True
    inplace: bool = False
    inplace_function: bool = False
    out: bool = False
    operators: tuple[str, ...] = ()
    inplace_operators: tuple[str, ...] = ()
    inplace_graph: Any = None
    inplace_check: Any = None

    @property
    def inplace_name(self) -> str:
        """The in-place method's name: `add_` for `add`, the row's own for `fill_`."""
        return self.name if self.name.endswith("_") else self.name + "_"


@dataclass(frozen=True, slots=True)
class Family:
    """The rows of one op module, under the module's name."""

    module: str
    rows: tuple[Op, ...]


def collect(modules: Iterable[ModuleType]) -> tuple[Family, ...]:
    """The table: each family module's `OPS`, in the order given (later rows win)."""
    return tuple(Family(m.__name__, tuple(m.OPS)) for m in modules)


def rows(table: Iterable[Family]) -> list[tuple[str, Op]]:
    """Every row with its module's name, in binding order."""
    return [(f.module, op) for f in table for op in f.rows]
