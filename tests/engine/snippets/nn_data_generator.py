import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

ds = TensorDataset(torch.arange(20.0).reshape(10, 2), torch.arange(10))
g = torch.Generator().manual_seed(42)
print(type(g).__name__, g.initial_seed(), g.device)
train, test = random_split(ds, [0.8, 0.2], generator=g)
print(len(train), len(test))
a, _ = random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(7))
b, _ = random_split(ds, [0.8, 0.2], generator=torch.Generator().manual_seed(7))
print(a.indices == b.indices, sorted(a.indices + _.indices) == list(range(10)))
loader = DataLoader(train, batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(0))
sizes = [len(yb) for _, yb in loader]
print(sizes, len(loader))
seen = sorted(int(v) for _, yb in loader for v in yb)
print(seen == sorted(train.indices))
x0, y0 = train[0]
print(x0.shape, y0.dtype, x0.dtype)
print(torch.Generator().manual_seed(3).initial_seed())
