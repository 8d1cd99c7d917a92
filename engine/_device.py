"""`torch.device`: only the CPU exists here; CUDA requests fail as PyTorch's CPU build does."""

from __future__ import annotations

from typing import Any


class device:
    """A device (`torch.device('cpu')`)."""

    type: str
    index: int | None

    def __init__(self, type: Any = "cpu", index: int | None = None) -> None:
        if isinstance(type, device):
            type, index = type.type, type.index
        name = str(type)
        if ":" in name:
            name, idx = name.split(":", 1)
            index = int(idx)
        self.type = name
        self.index = index

    def __repr__(self) -> str:
        idx = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{idx})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __enter__(self) -> device:
        """`with torch.device(...)`: tensors made inside go there; only the CPU exists."""
        check(self)
        return self

    def __exit__(self, *exc: object) -> None:
        return None


CPU = device("cpu")


def check(dev: Any) -> None:
    """Raise PyTorch's CPU-build error for devices other than the CPU."""
    if dev is None:
        return
    d = device(dev)
    if d.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if d.type not in ("cpu", "meta"):
        raise RuntimeError(
            f"Expected one of cpu, cuda, ... device type at start of device string: {d.type}"
        )
