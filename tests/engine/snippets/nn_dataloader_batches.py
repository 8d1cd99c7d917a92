import torch
from torch.utils.data import DataLoader, TensorDataset, Dataset

x = torch.arange(10.0).reshape(5, 2)
y = torch.arange(5)
ds = TensorDataset(x, y)
print(len(ds))
print(ds[0])
print(ds[1:3])
for xb, yb in DataLoader(ds, batch_size=2):
    print(xb, yb)
dl = DataLoader(ds, batch_size=2, drop_last=True)
print(len(dl), len(DataLoader(ds, batch_size=2)))
for i, (xb, yb) in enumerate(dl):
    print(i, xb.shape, yb.tolist())
it = iter(DataLoader(ds, batch_size=3))
print(next(it))
print(next(it))
try:
    next(it)
except StopIteration:
    print("stop")
print(next(iter(DataLoader(ds))))


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i, float(i * i), {"idx": torch.tensor(i)}


for batch in DataLoader(Squares(5), batch_size=2):
    print(batch)
print(DataLoader(Squares(3), batch_size=None).batch_size)
for b in DataLoader(Squares(2), batch_size=None):
    print(b)
try:
    TensorDataset(torch.zeros(3), torch.zeros(4))
except AssertionError as e:
    print("AssertionError", e)
