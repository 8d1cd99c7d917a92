"""`torch.layout` and `torch.memory_format`: the named constants PyTorch exposes
(`torch.strided`, `torch.channels_last`, ...), printed as PyTorch prints them.

>>> torch.zeros(1, 3, 4, 4).contiguous(memory_format=torch.channels_last).stride()
(48, 1, 12, 3)
"""

from __future__ import annotations


class layout:
    """How a tensor's elements are stored; the engine's are all `torch.strided`."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


class memory_format:
    """The order of a tensor's dimensions in memory (strides), as `contiguous` and `to` take."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"

    def __reduce__(self) -> str:
        return self.name


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
jagged = layout("jagged")

contiguous_format = memory_format("contiguous_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
preserve_format = memory_format("preserve_format")
