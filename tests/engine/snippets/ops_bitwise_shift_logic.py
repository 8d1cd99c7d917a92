import torch

a = torch.tensor([12, 10], dtype=torch.int32)
b = torch.tensor([10, 6], dtype=torch.int32)
print(
    a & b, a | b, a ^ b, ~a, torch.bitwise_and(a, 3), torch.bitwise_not(torch.tensor([True, False]))
)
for fn in [lambda: torch.tensor([1.0]) & torch.tensor([1.0]), lambda: torch.tensor([1.5]) | 1]:
    try:
        fn()
    except Exception as e:
        print(type(e).__name__, e)
