"""`torch.utils.data.dataloader`: a single-process `DataLoader`.

>>> ds = TensorDataset(torch.arange(4.0), torch.arange(4))
>>> [y.tolist() for _, y in DataLoader(ds, batch_size=3)]
[[0, 1, 2], [3]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from engine._generator import pick
from engine.utils.data.collate import default_collate, default_convert
from engine.utils.data.dataset import IterableDataset
from engine.utils.data.sampler import BatchSampler, RandomSampler, SequentialSampler


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


__all__ = ["DataLoader", "default_collate", "default_convert"]
