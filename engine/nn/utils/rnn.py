"""`torch.nn.utils.rnn`: padded and packed batches of variable-length sequences.

>>> p = pack_padded_sequence(torch.ones(3, 2), [3, 1])
>>> p.batch_sizes
tensor([2, 1, 1])
>>> pad_packed_sequence(p)[1]
tensor([3, 1])
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from engine._tensor import Tensor
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record
from engine.ops.nn_ops import Array, linear_grad

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes `permutation` (PyTorch scatters an arange)."""
    if permutation is None:
        return None
    out = torch.empty_like(permutation)
    out.scatter_(0, permutation, torch.arange(0, permutation.numel()))
    return out


class PackedSequence(PackedSequence_):
    """A packed batch: `data` holds step t's first `batch_sizes[t]` rows, step after step."""

    def __new__(
        cls,
        data: Any,
        batch_sizes: Tensor | None = None,
        sorted_indices: Tensor | None = None,
        unsorted_indices: Tensor | None = None,
    ) -> PackedSequence:
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes)), as PyTorch allows
            data, batch_sizes = data
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def _with(self, data: Tensor, **kwargs: Any) -> PackedSequence:
        if data is self.data:
            return self
        si, ui = self.sorted_indices, self.unsorted_indices
        return type(self)(
            data,
            self.batch_sizes,
            None if si is None else si.to(data.device, **kwargs),
            None if ui is None else ui.to(data.device, **kwargs),
        )

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """Like Tensor.to on `data`; the indices follow its device."""
        rest = {k: v for k, v in kwargs.items() if k not in ("device", "dtype")}
        return self._with(self.data.to(*args, **kwargs), **rest)

    def cuda(self, *args: Any, **kwargs: Any) -> PackedSequence:
        return self._with(self.data.cuda(*args, **kwargs))

    def cpu(self, *args: Any, **kwargs: Any) -> PackedSequence:
        return self._with(self.data.cpu(*args, **kwargs))

    def pin_memory(self) -> PackedSequence:
        return self

    def double(self) -> PackedSequence:
        return self.to(dtype=torch.double)

    def float(self) -> PackedSequence:
        return self.to(dtype=torch.float)

    def half(self) -> PackedSequence:
        return self.to(dtype=torch.half)

    def long(self) -> PackedSequence:
        return self.to(dtype=torch.long)

    def int(self) -> PackedSequence:
        return self.to(dtype=torch.int)

    def short(self) -> PackedSequence:
        return self.to(dtype=torch.short)

    def char(self) -> PackedSequence:
        return self.to(dtype=torch.int8)

    def byte(self) -> PackedSequence:
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self) -> bool:
        return bool(self.data.is_cuda)

    def is_pinned(self) -> bool:
        return False


def _packed_rows(batch_sizes: list[int]) -> tuple[Array, Array]:
    """(time, batch) of each packed row, in packed order."""
    t = np.concatenate([np.full(b, i) for i, b in enumerate(batch_sizes)])
    b = np.concatenate([np.arange(b) for b in batch_sizes])
    return t, b


def _pack(a: Array, batch_sizes: list[int], batch_first: bool) -> Array:
    t, b = _packed_rows(batch_sizes)
    return np.ascontiguousarray(a[b, t] if batch_first else a[t, b])


def _unpack(g: Array, batch_sizes: list[int], batch_first: bool, shape: tuple[int, ...]) -> Array:
    out = np.zeros(shape, g.dtype)
    t, b = _packed_rows(batch_sizes)
    if batch_first:
        out[b, t] = g
    else:
        out[t, b] = g
    return out


class PackPaddedSequenceBackward0(OpNode):
    __slots__ = ()
    _name = "PackPaddedSequenceBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        bs, bf, shape = self.__dict__["batch_sizes"], self.__dict__["bf"], self.__dict__["shape"]
        if STATE.enabled and g._rg:
            return [_pack_padded_backward(g, bs, bf, shape)]
        return [
            linear_grad(
                self._name, g, lambda a: _unpack(a, bs, bf, shape), lambda a: _pack(a, bs, bf)
            )
        ]


def _pack_padded_backward(
    g: Tensor, batch_sizes: list[int], batch_first: bool, shape: tuple[int, ...]
) -> Tensor:
    """ATen's composite backward, recorded under create_graph: a copy per step, transposed."""
    dims = (shape[1], shape[0], *shape[2:]) if batch_first else shape
    out = torch.zeros(dims, dtype=g.dtype)
    offset = 0
    for i, b in enumerate(batch_sizes):
        out.select(0, i).narrow(0, 0, b).copy_(g.narrow(0, offset, b))
        offset += b
    return out.transpose(0, 1) if batch_first else out


def _pack_padded(input: Tensor, lengths: list[int], batch_first: bool) -> tuple[Tensor, Tensor]:
    """ATen's `_pack_padded_sequence`, with its checks in its order."""
    batch = input.shape[0 if batch_first else 1]
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if len(lengths) != batch:
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lengths)} "
            f"(batch_size={batch})"
        )
    if lengths[-1] <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' "
            "that is <= 0"
        )
    if any(a < b for a, b in itertools.pairwise(lengths)):
        raise RuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
            "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
            "sidestep this requirement if you do not need ONNX exportability."
        )
    batch_sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
    # lengths beyond the padded length: ATen's slices stop at its end, batch_sizes do not
    rows = batch_sizes[: input.shape[1 if batch_first else 0]]
    data = _pack(input._d, rows, batch_first)
    sizes_t = torch.tensor(batch_sizes, dtype=torch.int64)
    saved = {"batch_first": batch_first, "input_sym_sizes": tuple(input.shape), "result1": sizes_t}
    keep = {"batch_sizes": rows, "bf": batch_first, "shape": tuple(input.shape)}
    out = record(PackPaddedSequenceBackward0, data, (input,), saved, keep=keep)
    return out, sizes_t


def pack_padded_sequence(
    input: Tensor, lengths: Any, batch_first: bool = False, enforce_sorted: bool = True
) -> PackedSequence:
    """Pack a padded batch; `lengths` sorted longest first unless enforce_sorted=False.

    >>> pack_padded_sequence(torch.ones(2, 3), [1, 2], batch_first=True, enforce_sorted=False)
    """
    if isinstance(lengths, Tensor):
        lengths = lengths.to(dtype=torch.int64)
    else:
        lengths = torch.as_tensor(lengths, dtype=torch.int64, device="cpu")
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    data, batch_sizes = _pack_padded(input, [int(n) for n in lengths.tolist()], batch_first)
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def _full(dims: tuple[int, ...], value: float, dtype: Any) -> Tensor:
    """ATen's at::full inside a composite op: empty then fill_, so the version starts at 1."""
    return torch.empty(dims, dtype=dtype).fill_(value)


def _pad_packed(
    data: Tensor, batch_sizes: list[int], batch_first: bool, value: float, total: int
) -> tuple[Tensor, Tensor]:
    """ATen's `_pad_packed_sequence`: a filled tensor, each run of equal batch size copied in."""
    steps = len(batch_sizes)
    top = batch_sizes[0]
    out = _full((max(total, steps), top, *data.shape[1:]), value, data.dtype)
    lengths = [0] * top
    offset, prev_b, prev_i = 0, top, 0
    for i in range(steps + 1):
        b = batch_sizes[i] if i != steps else 0
        if b != prev_b:
            n = prev_b * (i - prev_i)
            tmp = data.narrow(0, offset, n).view(i - prev_i, prev_b, *data.shape[1:])
            out.narrow(0, prev_i, i - prev_i).narrow(1, 0, prev_b).copy_(tmp)
            offset += n
            prev_i = i
        for j in range(b, prev_b):
            lengths[j] = i
        prev_b = b
    if batch_first:
        out = out.transpose(0, 1)
    return out, torch.tensor(lengths, dtype=torch.int64)


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Undo pack_padded_sequence: (padded batch, lengths), in the batch's original order."""
    steps = int(sequence.batch_sizes.size(0))
    if total_length is not None:
        if total_length < steps:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being {steps}"
            )
        steps = total_length
    sizes = [int(n) for n in sequence.batch_sizes.tolist()]
    out, lengths = _pad_packed(sequence.data, sizes, batch_first, padding_value, steps)
    ui = sequence.unsorted_indices
    if ui is not None:
        return out.index_select(0 if batch_first else 1, ui), lengths[ui.cpu()]
    return out, lengths


def pad_sequence(
    sequences: Sequence[Tensor] | Tensor,
    batch_first: bool = False,
    padding_value: float = 0.0,
    padding_side: str = "right",
) -> Tensor:
    """ATen's way: a filled tensor, each sequence copied into its slot (so CopySlices).

    >>> pad_sequence([torch.ones(2), torch.ones(1)], batch_first=True)
    tensor([[1., 1.],
            [1., 0.]])
    """
    if padding_side not in ("left", "right"):
        raise ValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    seqs = list(sequences)
    longest = max(s.shape[0] for s in seqs)
    trailing = tuple(seqs[0].shape[1:])
    dims = (len(seqs), longest, *trailing) if batch_first else (longest, len(seqs), *trailing)
    out = _full(dims, padding_value, seqs[0].dtype)
    for i, s in enumerate(seqs):
        n = s.shape[0]
        start = longest - n if padding_side == "left" else 0
        out.select(0 if batch_first else 1, i).narrow(0, start, n).copy_(s)
    return out


def unpad_sequence(
    padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False
) -> list[Tensor]:
    """Split a padded batch back into its sequences (transposes it in place, as PyTorch does)."""
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    idx = torch.arange(padded_sequences.shape[1])
    return [seq[idx < length] for seq, length in zip(padded_sequences, lengths, strict=False)]


def pack_sequence(sequences: Sequence[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences of different lengths (longest first unless enforce_sorted=False)."""
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The list of sequences a PackedSequence holds, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pack_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpack_sequence",
    "unpad_sequence",
]
