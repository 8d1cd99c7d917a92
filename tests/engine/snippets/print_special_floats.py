import torch

print(torch.tensor([-0.0, 0.0]), torch.tensor(-0.0))
print(torch.tensor([float("inf"), float("-inf"), float("nan"), 1.0]))
print(torch.tensor([float("nan")]), torch.tensor([float("inf"), 1e-3]))
print(torch.tensor([1.0, -1.0, 0.0]) / 0)
print(torch.tensor([1e10, 1.0]), torch.tensor([1e-10, 1.0]), torch.tensor([123456789.0]))
print(torch.tensor([0.1, 100000.0]), torch.tensor([1e-4, 1.0]), torch.tensor([99999.0, 1.5]))
print(torch.tensor([2.0, 4.0]), torch.tensor([2.5, 4.0]), torch.tensor([1e16]))
print(torch.tensor([0.1, 0.25], dtype=torch.float64), torch.tensor(1.0, dtype=torch.float64))
print(torch.tensor([float("nan"), 2.0]).sum(), torch.tensor([float("inf"), -float("inf")]).sum())
print(
    torch.tensor(float("nan")) == torch.tensor(float("nan")),
    torch.isnan(torch.tensor([1.0, float("nan")])),
)
