import torch
from torch.utils.data import DataLoader, Dataset


class Squares(Dataset):
    def __init__(self, n):
        self.x = torch.arange(n, dtype=torch.float32)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.x[i] ** 2


torch.manual_seed(7)
ds = Squares(7)
print(len(ds), ds[3])
for xb, yb in DataLoader(ds, batch_size=3):
    print(xb, yb)
for xb, yb in DataLoader(ds, batch_size=3, shuffle=True, drop_last=True):
    print(xb.tolist(), yb.tolist())
g = torch.Generator()
g.manual_seed(1)
print([b[0].tolist() for b in DataLoader(ds, batch_size=4, shuffle=True, generator=g)])
print(torch.randn(2))
loader = DataLoader(ds, batch_size=2, shuffle=True)
it = iter(loader)
print(next(it))
print(len(loader))
