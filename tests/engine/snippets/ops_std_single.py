import torch

x = torch.tensor([1.0])
print(x.std())
print(x.var(), torch.tensor([2.0, 4.0]).std(), torch.tensor([[1.0, 2.0]]).std(dim=0))
print(
    torch.std_mean(torch.tensor([1.0, 2.0, 4.0])),
    torch.var_mean(torch.tensor([1.0, 3.0]), unbiased=False),
)
print(torch.tensor([1, 2, 3]).mean())
