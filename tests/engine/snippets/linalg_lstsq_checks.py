import torch

torch.manual_seed(0)
A = torch.randn(2, 3, 3)
cases = [
    lambda: torch.linalg.lstsq(A, torch.randn(3, 3, 2)),
    lambda: torch.linalg.lstsq(torch.randn(3), torch.randn(3)),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.ones(())),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.randn(4, 1)),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.randn(3)),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.randn(4)),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.randn(3, 1, dtype=torch.float64)),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.randn(3, 1), driver="foo"),
    lambda: torch.linalg.lstsq(torch.randn(3, 2), torch.randn(3, 1), driver="GELSD"),
    lambda: torch.linalg.lstsq(torch.randn(2, 3, 2), torch.randn(5, 1, 3, 1)),
    lambda: torch.linalg.lstsq(torch.randn(2, 3, 2), torch.randn(3)),
    lambda: torch.linalg.lstsq(torch.randn(4, 3, 2), torch.randn(3, 3, 1)),
    lambda: torch.linalg.lstsq(torch.randint(0, 3, (3, 2)), torch.randn(3, 1)),
    lambda: torch.linalg.lstsq(torch.ones(3, 2, dtype=torch.long), torch.ones(3, 1, dtype=torch.long)),
]
for case in cases:
    try:
        r = case()
        print([tuple(t.shape) for t in r])
    except RuntimeError as e:
        print(e)
