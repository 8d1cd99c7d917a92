"""What the engine's lower layers call in the layers above them, filled as those layers import.

The bottom layer (`Tensor`, the graph's nodes, grad mode, dtypes, the observer slot; see
tests/engine/test_layers.py) imports nothing above it. A few of its methods do need an upper
layer: `Tensor.backward` runs the autograd engine, `repr(t)` the printer, `t.real` the complex
ops. Each such call goes through one typed slot here, which the upper module fills once, at its
own import (its last lines: `UPPER.backward = backward`). `import engine` imports them all, so
every slot is filled before a snippet runs; calling an unfilled slot is an AttributeError.

    slot                 filled by                    called by
    backward             engine/autograd/engine.py    Tensor.backward
    accumulate_into      engine/autograd/engine.py    AccumulateGrad.apply
    tensor_repr          engine/_printing.py          Tensor.__repr__
    flush_tangents       engine/autograd/forward_jvp  Tensor.grad_fn (pending forward-AD tangents)
    real, imag           engine/ops/complex.py        Tensor.real, Tensor.imag
    profiled_ops         engine/_profiled_ops.py      autograd.profiler.profile (what it times)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from engine._tensor import Tensor


class Backward(Protocol):
    """`torch.autograd.backward`'s signature."""

    def __call__(
        self,
        tensors: Any,
        grad_tensors: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        grad_variables: Any = None,
        inputs: Any = None,
    ) -> None: ...


# how the profiler names a timed call: a fixed name, or one made from the call's arguments
Label = str | Callable[[tuple[Any, ...], dict[str, Any]], str]


class Upper:
    """The slots (one instance, `UPPER`); each is set once by the module named above."""

    __slots__ = (
        "accumulate_into",
        "backward",
        "flush_tangents",
        "imag",
        "profiled_ops",
        "real",
        "tensor_repr",
    )

    backward: Backward
    accumulate_into: Callable[[Tensor, Tensor], None]
    tensor_repr: Callable[[Tensor], str]
    flush_tangents: Callable[[], None]
    real: Callable[[Tensor], Tensor]
    imag: Callable[[Tensor], Tensor]
    # (owner, attribute, label) of every op the profiler times
    profiled_ops: Callable[[], list[tuple[Any, str, Label]]]


UPPER = Upper()
