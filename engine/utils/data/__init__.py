"""`torch.utils.data`: map-style and iterable datasets, samplers and a single-process
`DataLoader`, in PyTorch's files (dataset, sampler, dataloader, _utils/collate).

>>> ds = TensorDataset(torch.arange(4.0), torch.arange(4))
>>> [y.tolist() for _, y in DataLoader(ds, batch_size=3)]
[[0, 1, 2], [3]]
"""

from engine.utils.data._utils.collate import default_collate, default_convert
from engine.utils.data.dataloader import DataLoader, get_worker_info
from engine.utils.data.dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
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
    "ChainDataset",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "StackDataset",
    "Subset",
    "SubsetRandomSampler",
    "TensorDataset",
    "WeightedRandomSampler",
    "default_collate",
    "default_convert",
    "get_worker_info",
    "random_split",
]
