"""`torch.Size`: a tuple that prints as PyTorch's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


class Size(tuple[int, ...]):
    """The shape of a tensor: `torch.Size([2, 3])`."""

    def __new__(cls, seq: Any = ()) -> Size:
        return super().__new__(cls, (int(s) for s in seq))

    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key: Any) -> Any:
        out = super().__getitem__(key)
        return Size(out) if isinstance(key, slice) else out

    def __add__(self, other: Any) -> Size:
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other: Any) -> Size:
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n: Any) -> Size:
        return Size(tuple(self) * n)

    __rmul__ = __mul__

    if not TYPE_CHECKING:  # (kept from mypy, which would read every attribute as present)

        def __getattr__(self, name: str) -> Any:
            """A missing attribute named as PyTorch names it: `'torch.Size' object has no…`."""
            raise AttributeError(f"'torch.Size' object has no attribute '{name}'")
