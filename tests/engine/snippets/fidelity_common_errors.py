import torch
import torch.nn as nn


def attempt(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__ + ":", e)


a = torch.ones(2, 3)
b = torch.ones(4, 5)
attempt(lambda: a @ b)
attempt(lambda: torch.mm(a, b))
attempt(lambda: a + torch.ones(4))
attempt(lambda: a.view(4))
attempt(lambda: a.reshape(5))
attempt(lambda: torch.cat([a, b]))
attempt(lambda: torch.stack([a, b]))
attempt(lambda: nn.Linear(3, 2)(torch.ones(2, 4)))
attempt(lambda: torch.ones(2).backward())
attempt(lambda: torch.tensor([1.0, 2.0], requires_grad=True).mul(2).backward())
attempt(lambda: a[5])
attempt(lambda: a[:, 3])
attempt(lambda: a.sum(dim=2))
attempt(lambda: a.transpose(0, 2))
attempt(lambda: torch.tensor([[1, 2], [3]]))
attempt(lambda: torch.tensor("abc"))
attempt(lambda: nn.CrossEntropyLoss()(torch.randn(2, 3), torch.tensor([0.0, 1.0])))
attempt(lambda: nn.CrossEntropyLoss()(torch.randn(2, 3), torch.tensor([0, 3])))
attempt(lambda: nn.functional.mse_loss(torch.ones(2), torch.ones(3)))
attempt(lambda: torch.ones(2, dtype=torch.long) @ torch.ones(2))
attempt(lambda: a.squeeze(2))
attempt(lambda: a.expand(3, 3))
attempt(lambda: a.permute(0))
attempt(lambda: torch.zeros(2).to("cuda"))
attempt(lambda: a.max(dim=5))
attempt(lambda: torch.arange(0, 10, -1))
attempt(lambda: nn.Conv2d(3, 4, 3)(torch.ones(1, 2, 5, 5)))
attempt(lambda: nn.Embedding(3, 2)(torch.tensor([3])))
attempt(lambda: torch.gather(a, 1, torch.tensor([[5]])))
attempt(lambda: a.item())
