import torch
from torch.utils.data import DataLoader, TensorDataset, random_split

torch.manual_seed(0)
X = torch.arange(20, dtype=torch.float32).reshape(10, 2)
y = torch.arange(10)
ds = TensorDataset(X, y)
train, val = random_split(ds, [8, 2])
print(len(train), len(val), train.indices, val.indices)
loader = DataLoader(train, batch_size=3, shuffle=True)
for epoch in range(2):
    for xb, yb in loader:
        print(epoch, yb.tolist(), xb.shape)
