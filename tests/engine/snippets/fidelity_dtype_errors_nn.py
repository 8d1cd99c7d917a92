import torch
import torch.nn as nn
import torch.nn.functional as F


def attempt(fn):
    try:
        out = fn()
        print("ok", out)
    except Exception as e:
        print(type(e).__name__ + ":", e)


lin = nn.Linear(2, 1)
attempt(lambda: lin(torch.ones(1, 2, dtype=torch.float64)))
attempt(lambda: lin(torch.ones(1, 2, dtype=torch.int64)))
attempt(lambda: torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64))
attempt(lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([1, 2], dtype=torch.int32)))
attempt(lambda: F.cross_entropy(torch.zeros(2, 3), torch.tensor([1.0, 2.0])))
attempt(lambda: F.nll_loss(torch.zeros(2, 3), torch.tensor([1.0, 2.0])))
attempt(lambda: F.mse_loss(torch.ones(2), torch.ones(2, dtype=torch.int64)))
attempt(lambda: F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([1])))
attempt(lambda: F.binary_cross_entropy_with_logits(torch.tensor([0.5]), torch.tensor([1])))
attempt(lambda: nn.Embedding(3, 2)(torch.tensor([0.0, 1.0])))
attempt(lambda: nn.Conv2d(1, 1, 2)(torch.ones(1, 1, 3, 3, dtype=torch.float64)))
attempt(lambda: torch.ones(2, dtype=torch.int64).mean())
attempt(lambda: torch.tensor([1, 2]).float().requires_grad_().long().requires_grad)
