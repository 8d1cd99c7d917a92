"""`torch.utils.data`: map-style datasets, samplers and a single-process `DataLoader`,
in files named as PyTorch's.

>>> ds = TensorDataset(torch.arange(4.0), torch.arange(4))
>>> [y.tolist() for _, y in DataLoader(ds, batch_size=3)]
[[0, 1, 2], [3]]
"""

from engine.utils.data.collate import default_collate, default_convert
from engine.utils.data.dataloader import DataLoader
from engine.utils.data.dataset import (
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from engine.utils.data.sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

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
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "default_collate",
    "default_convert",
    "random_split",
]
