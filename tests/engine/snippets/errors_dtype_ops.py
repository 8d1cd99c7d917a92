import torch

for fn in [
    lambda: torch.tensor([1, 2]) @ torch.tensor([1.0, 2.0]),
    lambda: torch.tensor([1.0]).bitwise_and(torch.tensor([1])),
    lambda: torch.tensor([1, 2]).frac(),
    lambda: torch.tensor([True]).neg(),
    lambda: torch.mm(torch.ones(2, 2, dtype=torch.int64), torch.ones(2, 2)),
    lambda: torch.ones(2).long().requires_grad_(),
    lambda: torch.arange(0, 10, 0),
    lambda: torch.ones(2).view(torch.int32),
]:
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__, e)
