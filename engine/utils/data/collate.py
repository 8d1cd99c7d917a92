"""`default_collate` and `default_convert`: how a DataLoader turns items into batches."""

from __future__ import annotations

import collections.abc
from typing import Any

import numpy as np

from engine._tensor import Tensor


def default_collate(batch: list[Any]) -> Any:
    """Stack tensors, turn numbers into tensors, and recurse into tuples, lists and dicts."""
    from engine._creation import tensor
    from engine.ops.tensor_shape import stack

    elem = batch[0]
    if isinstance(elem, Tensor):
        return stack(batch, 0)
    if isinstance(elem, np.ndarray | np.generic):
        from engine._creation import as_tensor

        return stack([as_tensor(np.asarray(b)) for b in batch], 0)
    if isinstance(elem, bool):
        return tensor(batch)
    if isinstance(elem, float):
        from engine import _dtype

        return tensor(batch, dtype=_dtype.float64)
    if isinstance(elem, int):
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {k: default_collate([d[k] for d in batch]) for k in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):
        return type(elem)(*(default_collate(list(s)) for s in zip(*batch, strict=True)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(e) != len(elem) for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        # PyTorch returns a list for a batch of tuples too (TensorDataset rows included)
        return [default_collate(list(s)) for s in zip(*batch, strict=True)]
    return batch


def default_convert(data: Any) -> Any:
    """What `batch_size=None` applies to each item: tuples become lists, as in PyTorch."""
    if isinstance(data, (Tensor, str, bytes)):
        return data
    if isinstance(data, np.ndarray | np.generic):
        from engine._creation import as_tensor

        return as_tensor(np.asarray(data))
    if isinstance(data, collections.abc.Mapping):
        return {k: default_convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, collections.abc.Sequence):
        return [default_convert(d) for d in data]
    return data
