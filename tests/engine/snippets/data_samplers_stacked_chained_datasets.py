import torch
from torch.utils.data import (StackDataset, ChainDataset, IterableDataset, SubsetRandomSampler,
    WeightedRandomSampler, DataLoader, TensorDataset, get_worker_info)
from torch.utils.data.sampler import SubsetRandomSampler as S2
from torch.utils.data.dataloader import default_collate
from torch.utils.data._utils.collate import default_convert
torch.manual_seed(0)
a = TensorDataset(torch.arange(4.))
sd = StackDataset(a, torch.arange(4) * 10)
print(len(sd), sd[2])
print(StackDataset(x=a, y=[5, 6, 7, 8])[1])
class It(IterableDataset):
    def __init__(self, n): self.n = n
    def __iter__(self): return iter(range(self.n))
    def __len__(self): return self.n
ch = ChainDataset([It(2), It(3)])
print(list(ch), len(ch))
print(list(DataLoader(ch, batch_size=2)))
s = SubsetRandomSampler([10, 20, 30, 40], generator=torch.Generator().manual_seed(5))
print(list(s), list(s), len(s), S2 is SubsetRandomSampler)
w = WeightedRandomSampler([1, 2, 3, 0], 6)
print(list(w), len(w))
print(list(WeightedRandomSampler([1., 1., 5.], 2, replacement=False, generator=torch.Generator().manual_seed(0))))
print(get_worker_info(), default_collate([1, 2]), default_convert((1, 2)))
dl = DataLoader(TensorDataset(torch.arange(6.)), batch_size=2, sampler=SubsetRandomSampler(range(6)))
print([b[0].tolist() for b in dl])
print(WeightedRandomSampler.__module__, StackDataset.__module__, DataLoader.__module__)
try:
    WeightedRandomSampler([1, 2], 0)
except ValueError as e:
    print(e)
try:
    StackDataset(a, [1, 2])
except ValueError as e:
    print(e)
