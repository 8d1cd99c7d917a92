"""`torch.utils.data.sampler`: the index orders a DataLoader draws from, as PyTorch draws them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from engine._generator import Generator, default_generator


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


class SubsetRandomSampler(Sampler):
    """The given indices in a random order (one randperm, of the default generator if none)."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        from engine._random import randperm

        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn by `torch.multinomial` over the weights (float64)."""

    def __init__(
        self,
        weights: Sequence[float],
        num_samples: int,
        replacement: bool = True,
        generator: Any = None,
    ) -> None:
        from engine import _dtype
        from engine._creation import as_tensor

        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        if not isinstance(replacement, bool):
            raise ValueError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        weights_tensor = as_tensor(weights, dtype=_dtype.float64)
        if weights_tensor.ndim != 1:
            raise ValueError(
                "weights should be a 1d sequence but given weights have shape "
                f"{tuple(weights_tensor.shape)}"
            )
        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        from engine._random import multinomial

        drawn = multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples
