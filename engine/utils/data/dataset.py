"""`torch.utils.data.dataset`: map-style and iterable datasets, and random_split."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from engine._tensor import Tensor


class Dataset:
    """Base class of map-style datasets: subclasses define `__getitem__` (and `__len__`)."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """Base class of iterable-style datasets: subclasses define `__iter__`."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class TensorDataset(Dataset):
    """Rows of several tensors sharing their first dimension."""

    def __init__(self, *tensors: Tensor) -> None:
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), (
            "Size mismatch between tensors"
        )
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple[Any, ...]:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return int(self.tensors[0].size(0))


class Subset(Dataset):
    """The items of `dataset` at `indices`."""

    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another."""

    def __init__(self, datasets: Iterable[Any]) -> None:
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        self.cumulative_sizes: list[int] = []
        total = 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        start = 0
        for d, end in zip(self.datasets, self.cumulative_sizes, strict=True):
            if idx < end:
                return d[idx - start]
            start = end
        raise IndexError("list index out of range")


def random_split(dataset: Any, lengths: Sequence[float], generator: Any = None) -> list[Subset]:
    """Split into non-overlapping random subsets of the given lengths (or fractions)."""
    from engine._random import randperm

    n = len(dataset)
    sizes = [int(x) for x in lengths]
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1 and n != 1:
        sizes = [math.floor(n * frac) for frac in lengths]
        for i in range(n - sum(sizes)):
            sizes[i % len(sizes)] += 1
    if sum(sizes) != n:
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    perm = randperm(n, generator=generator).tolist()
    out, start = [], 0
    for size in sizes:
        out.append(Subset(dataset, perm[start : start + size]))
        start += size
    return out
