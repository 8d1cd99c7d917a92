# Examples from the torch.utils.data docs: samplers, random_split with a generator,
# default_collate / default_convert, IterableDataset with workers off, Subset indexing.
import collections

import numpy as np
import torch
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    SubsetRandomSampler,
    TensorDataset,
    WeightedRandomSampler,
    default_collate,
    random_split,
)
from torch.utils.data.dataloader import default_convert

torch.manual_seed(0)
print(list(WeightedRandomSampler([0.1, 0.9, 0.4, 0.7, 3.0, 0.6], 5, replacement=True)))
print(list(WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 5, replacement=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=True)))
g = torch.Generator().manual_seed(42)
print([list(s) for s in random_split(range(10), [3, 7], generator=g)])
print([list(s) for s in random_split(range(30), [0.3, 0.3, 0.4], generator=torch.Generator().manual_seed(42))])
print(list(RandomSampler(range(6), generator=torch.Generator().manual_seed(1))))
print(list(RandomSampler(range(4), replacement=True, num_samples=6, generator=torch.Generator().manual_seed(2))))
print(list(SubsetRandomSampler([10, 20, 30], generator=torch.Generator().manual_seed(3))))

print(default_collate([0, 1, 2, 3]))
print(default_collate(['a', 'b', 'c']))
print(default_collate([{'A': 0, 'B': 1}, {'A': 100, 'B': 100}]))
Point = collections.namedtuple('Point', ['x', 'y'])
print(default_collate([Point(0, 0), Point(1, 1)]))
print(default_collate([(0, 1), (2, 3)]))
print(default_collate([[0, 1], [2, 3]]))
print(default_collate([torch.tensor([1.0]), torch.tensor([2.0])]))
print(default_collate([np.array([1.5]), np.array([2.5])]))
print(default_collate([1.5, 2.5]), default_collate([True, False]))
print(default_convert(0))
print(default_convert(np.array([0, 1])))
print(default_convert([np.array([0, 1]), np.array([2, 3])]))
print(default_convert(Point(0, 0)))


class MyIterableDataset(IterableDataset):
    def __init__(self, start, end):
        super(MyIterableDataset).__init__()
        assert end > start, "this example code only works with end >= start"
        self.start = start
        self.end = end

    def __iter__(self):
        return iter(range(self.start, self.end))


ds = MyIterableDataset(start=3, end=7)
print(list(DataLoader(ds, num_workers=0)))
print(list(DataLoader(ds, batch_size=3)))

tds = TensorDataset(torch.arange(6.0).reshape(3, 2), torch.tensor([0, 1, 0]))
for xb, yb in DataLoader(tds, batch_size=2):
    print(xb, yb)
loader = DataLoader(tds, batch_size=None)
print(next(iter(loader)))
DataLoader(tds, batch_size=2, shuffle=True, sampler=SequentialSampler(tds))
