"""Real torch tensors as wire values (`protocol.TensorValue`), built by the engine tracer's own
value code so both producers send the same shapes.

`engine/tracing/values.py` needs only NumPy; it is loaded here as a lone module because importing
it by package path would import the whole engine (seconds, and the engine plays no part in a
real-torch run).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import torch

from protocol import TensorValue

_SOURCE = Path(__file__).resolve().parents[2] / "engine" / "tracing" / "values.py"


def _load() -> ModuleType:
    name = "backscope._wire_values"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, _SOURCE)
    assert spec is not None and spec.loader is not None, _SOURCE
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


wire = _load()
INLINE_LIMIT: int = wire.INLINE_LIMIT
plain = wire.plain

# dtypes NumPy has no type for are shown through the nearest one it has
_WIDEN = {torch.bfloat16: torch.float32, torch.float8_e4m3fn: torch.float32}


def dtype_name(t: torch.Tensor) -> str:
    """`float32`, `int64`, `bfloat16`... as PyTorch names the dtype (NumPy's names where both
    have one: the engine's names)."""
    return str(t.dtype).removeprefix("torch.")


def array(t: torch.Tensor) -> Any:
    """The tensor's values as a NumPy array (CPU, no grad, conj/neg resolved), sharing the
    tensor's memory where it can: read it at once (a later in-place write shows through)."""
    with torch._C.DisableTorchFunction(), torch.no_grad():
        d = t.detach()
        if d.layout != torch.strided:
            d = d.to_dense()
        if d.is_quantized:
            d = d.dequantize()
        if d.dtype in _WIDEN:
            d = d.to(_WIDEN[d.dtype])
        d = d.resolve_conj().resolve_neg()
        return d.cpu().numpy() if d.device.type != "meta" else None


class Budget:
    """How much of a run's values are sent whole: tensors up to `per_tensor` elements, until
    `left` elements have been sent (the rest as summaries)."""

    def __init__(self, inline: int, per_tensor: int = 0, total: int = 0) -> None:
        self.inline = inline
        self.per_tensor = per_tensor
        self.left = total


def value(t: torch.Tensor, budget: Budget) -> TensorValue:
    """The wire value of `t` now: small tensors inline, large ones summarized (with full values
    while the budget lasts)."""
    out: dict[str, Any] = {"shape": list(t.shape), "dtype": dtype_name(t)}
    a = array(t)
    if a is None:  # a meta tensor has no values
        return out  # type: ignore[return-value]
    n = a.size
    if n <= budget.inline:
        wire.inline(a, out)
        return out  # type: ignore[return-value]
    if n <= budget.per_tensor and n <= budget.left:
        budget.left -= n
        wire.inline(a, out)
    wire.summarize(a, out)
    return out  # type: ignore[return-value]
