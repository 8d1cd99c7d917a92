import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class NumpyDS(Dataset):
    def __init__(self):
        self.x = np.arange(12, dtype=np.float32).reshape(6, 2)
        self.y = np.array([0, 1, 0, 1, 1, 0])

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


for xb, yb in DataLoader(NumpyDS(), batch_size=4):
    print(xb, yb, xb.dtype, yb.dtype)
print(next(iter(DataLoader(NumpyDS(), batch_size=None))))


class Seq(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return torch.full((2,), float(i)), [i, i * 2]


for b in DataLoader(Seq(), batch_size=2):
    print(b)
