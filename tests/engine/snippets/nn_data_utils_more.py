import torch
from torch.utils.data import (
    ConcatDataset, DataLoader, Subset, TensorDataset, random_split, Dataset,
    SequentialSampler, BatchSampler,
)

ds = TensorDataset(torch.arange(10.0), torch.arange(10) % 3)
sub = Subset(ds, [1, 3, 5])
print(len(sub), sub[0], sub[2])
cat = ConcatDataset([ds, sub])
print(len(cat), cat[10], cat[-1])
train, val = random_split(ds, [8, 2])
print(len(train), len(val), type(train).__name__)
a, b, c = random_split(ds, [0.5, 0.3, 0.2])
print(len(a), len(b), len(c))
print(sorted([int(x) for x, _ in train] + [int(x) for x, _ in val]))
try:
    random_split(ds, [3, 3])
except ValueError as e:
    print(e)
print(list(SequentialSampler(range(4))))
print(list(BatchSampler(SequentialSampler(range(5)), batch_size=2, drop_last=False)))
print(list(BatchSampler(range(5), batch_size=2, drop_last=True)))
dl = DataLoader(ds, batch_size=4, shuffle=True)
seen = torch.cat([xb for xb, _ in dl])
print(sorted(seen.tolist()), len(dl))
dl2 = DataLoader(ds, batch_size=3, collate_fn=lambda batch: len(batch))
print(list(dl2))


class Pairs(Dataset):
    def __len__(self):
        return 3

    def __getitem__(self, i):
        return {"x": torch.tensor([i, i + 1.0]), "y": i % 2, "name": f"item{i}"}


for batch in DataLoader(Pairs(), batch_size=2):
    print(batch)
print(next(iter(DataLoader(ds, batch_size=2, sampler=[9, 0]))))
print(len(DataLoader(ds, batch_size=4, drop_last=True)))
