import torch

for fn in [
    lambda: torch.tensor([]).max(),
    lambda: torch.tensor([]).sum(),
    lambda: torch.tensor([]).mean(),
    lambda: torch.zeros(2, 0).max(dim=1),
    lambda: torch.tensor([1, 2]).mean(),
    lambda: torch.tensor([1, 2]).var(),
    lambda: torch.ones(2, 3).sum(dim=2),
    lambda: torch.ones(2, 3).argmax(dim=-3),
    lambda: torch.ones(3).topk(4),
    lambda: torch.tensor([True, False]).mean(),
    lambda: torch.tensor([1.0, 2.0]).prod(dim=0),
    lambda: torch.tensor([[1, 2], [3, 4]]).max(dim=0).values,
]:
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__, e)
