import torch

for fn in [
    lambda: torch.ones(2, 3) @ torch.ones(2, 3),
    lambda: torch.ones(2, 3) + torch.ones(3, 2),
    lambda: torch.ones(3).dot(torch.ones(4)),
    lambda: torch.mm(torch.ones(2, 3), torch.ones(3)),
    lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 2)]),
    lambda: torch.stack([torch.ones(2), torch.ones(3)]),
    lambda: torch.ones(2).sum(dim=1),
    lambda: torch.ones(2, 3).permute(0),
    lambda: torch.ones(2, 3).transpose(0, 2),
    lambda: torch.zeros(2).unsqueeze(3),
    lambda: torch.tensor([[1, 2], [3]]),
    lambda: torch.zeros(2, 3).view(-1, 4),
    lambda: torch.ones(2, 2).backward(),
    lambda: torch.ones(2, requires_grad=True).numpy(),
    lambda: torch.tensor([1, 2]).std(),
    lambda: torch.tensor([1, 2]).mean(),
    lambda: torch.tensor("a"),
]:
    try:
        print(fn())
    except Exception as e:
        print(type(e).__name__, e)
