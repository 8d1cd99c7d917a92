"""`torch.utils.data`: map-style datasets, samplers and a single-process `DataLoader`.

>>> ds = TensorDataset(torch.arange(4.0), torch.arange(4))
>>> [y.tolist() for _, y in DataLoader(ds, batch_size=3)]
[[0, 1, 2], [3]]
"""

from __future__ import annotations

import collections.abc
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from engine._generator import Generator, default_generator, pick
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


class Sampler:
    """Base class of index samplers."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random permutation of the indices, drawn as PyTorch draws it."""

    def __init__(
        self,
        data_source: Any,
        replacement: bool = False,
        num_samples: Any = None,
        generator: Any = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else int(self._num_samples)

    def __iter__(self) -> Iterator[int]:
        from engine._random import randint, randperm

        n = len(self.data_source)
        gen = self.generator
        if gen is None:  # PyTorch seeds a fresh generator from one draw of the default one
            gen = Generator().manual_seed(int(default_generator.random_full(1, np.int64)[0]))
        if self.replacement:
            out = [
                randint(0, n, (32,), generator=gen).tolist() for _ in range(self.num_samples // 32)
            ]
            out.append(randint(0, n, (self.num_samples % 32,), generator=gen).tolist())
            return iter([i for chunk in out for i in chunk])
        perms = [randperm(n, generator=gen).tolist() for _ in range(self.num_samples // n)]
        perms.append(randperm(n, generator=gen).tolist()[: self.num_samples % n])
        return iter([i for chunk in perms for i in chunk])

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the indices of `sampler` into lists of `batch_size`."""

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool) -> None:
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for idx in self.sampler:
            batch.append(idx)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)  # type: ignore[arg-type]
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


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


class DataLoader:
    """Batches of a dataset in one process (`num_workers` is accepted and ignored)."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Callable[[list[Any]], Any] | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Any = None,
        generator: Any = None,
        **kwargs: Any,
    ) -> None:
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.generator = generator
        self._auto_collation = batch_sampler is not None or batch_size is not None
        if sampler is None:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if shuffle
                else SequentialSampler(dataset)
            )
        if batch_sampler is None and batch_size is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.collate_fn = collate_fn or (
            default_collate if self._auto_collation else default_convert
        )

    def __iter__(self) -> Iterator[Any]:
        # PyTorch's loader iterator draws its workers' base seed first, even with no workers
        pick(self.generator).random_full(1, np.int64)
        return self._iter_batches()

    def _iter_batches(self) -> Iterator[Any]:
        if isinstance(self.dataset, IterableDataset):
            yield from self._iter_iterable()
            return
        if self.batch_sampler is None:
            for idx in self.sampler:
                yield self.collate_fn(self.dataset[idx])
            return
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])

    def _iter_iterable(self) -> Iterator[Any]:
        if self.batch_size is None:
            yield from (self.collate_fn(x) for x in self.dataset)
            return
        batch: list[Any] = []
        for item in self.dataset:
            batch.append(item)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if isinstance(self.dataset, IterableDataset):
            n = len(self.dataset)  # type: ignore[arg-type]
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else -(-n // self.batch_size)
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


__all__ = [
    "BatchSampler",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "TensorDataset",
    "default_collate",
    "random_split",
]
