"""`torch.nn.utils.stateless`: the deprecated home of `functional_call`."""

from __future__ import annotations

from typing import Any

from engine._warn import warn
from engine.nn.utils._named_member_accessor import NamedMemberAccessor as NamedMemberAccessor

__all__ = ["functional_call"]


def functional_call(
    module: Any,
    parameters_and_buffers: Any,
    args: Any = None,
    kwargs: Any = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """`torch.func.functional_call`, with PyTorch's FutureWarning for this name."""
    from engine.func import functional_call as call

    warn(
        "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
        "removed in a future version of PyTorch. Please use `torch.func.functional_call` "
        "instead which is a drop-in replacement.",
        FutureWarning,
    )
    return call(
        module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights, strict=strict
    )
