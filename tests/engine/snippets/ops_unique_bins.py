import torch

print(
    torch.tensor([1, 2, 2, 3, 1]).unique(),
    torch.unique(torch.tensor([1, 2, 2, 3, 1]), return_counts=True),
)
print(torch.unique(torch.tensor([3.0, 1, 3]), sorted=True, return_inverse=True))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [3, 4]]), dim=0))
print(torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 3, 1, 1, 2]), return_counts=True))
print(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3])))
print(
    torch.bucketize(torch.tensor([[1, 3, 9], [3, 6, 9]]), torch.tensor([1, 3, 5, 7, 9]), right=True)
)
print(torch.searchsorted(torch.tensor([1, 3, 5, 7, 9]), torch.tensor([3, 6, 9])))
print(torch.bincount(torch.tensor([4, 3, 6, 3, 4])), torch.tensor([1, 1, 3]).bincount(minlength=5))
print(torch.bincount(torch.tensor([0, 1, 1]), weights=torch.tensor([0.5, 1.0, 2.0])))
print(
    torch.histc(torch.tensor([1.0, 2, 1]), bins=4, min=0, max=3),
    torch.histc(torch.tensor([1.0, 2, 1, 5]), bins=4),
)
print(torch.tril_indices(3, 3), torch.triu_indices(4, 3, 1))
print(torch.count_nonzero(torch.tensor([0, 1, 2])), torch.tensor([[0, 1], [1, 0]]).nonzero())
