"""`torch.nn.utils.convert_parameters`: parameters to one vector and back."""

from __future__ import annotations

from collections.abc import Iterable

from engine._tensor import Tensor, write

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """All parameters flattened into one vector (recorded: a cat of views)."""
    from engine.ops.tensor_shape import cat

    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Copy consecutive slices of `vec` into the parameters' data."""
    if not isinstance(vec, Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {type(vec).__name__}")
    i = 0
    for p in parameters:
        n = p.numel()
        write(p, vec._d[i : i + n].reshape(p._d.shape))
        i += n
