import torch

print(torch.arange(0, 1, 0.25), torch.arange(0.0, 1.0, 0.3), torch.arange(1, 0, -0.25))
print(torch.arange(0, 10, 2.5).dtype, torch.arange(0, 3, 1, dtype=torch.float16))
print(torch.arange(0.1, 0.5, 0.1), torch.arange(-3, 3, 1.5), len(torch.arange(0, 1, 1 / 3)))
for fn in [lambda: torch.arange(0, 10, 0), lambda: torch.arange(5, 0, 1)]:
    try:
        fn()
    except RuntimeError as e:
        print(e)
