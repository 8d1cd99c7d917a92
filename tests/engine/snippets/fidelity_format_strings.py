import torch

t = torch.tensor([1.23456, 2.5])
s = torch.tensor(3.14159)
print(f"value: {s}", f"{s:.2f}", f"{s.item():.3e}", "{}".format(t))
print(str(t), repr(s), "%s" % s, "%.1f" % s)
print(f"{t}")
try:
    print(f"{t:.2f}")
except TypeError as e:
    print(type(e).__name__, e)
print(t.shape, f"{t.shape}", str(t.dtype), t.dtype, f"{t.device}")
print([x for x in t], list(t.tolist()), tuple(t.shape))
print(round(s.item(), 2), int(s), float(s), s > 3, bool(s > 3))
print(torch.tensor(5) + 1, 2 * torch.tensor([1, 2]), 1 / torch.tensor([2.0]), 2 ** torch.tensor([3.0]))
print(-torch.tensor([1, 2]), abs(torch.tensor([-1.5])), torch.tensor([True]) + 1)
print(hash(s) != 0, s.__class__.__name__, len(t), t.__len__())
