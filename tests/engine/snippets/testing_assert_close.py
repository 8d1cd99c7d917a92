# torch.testing.assert_close as PyTorch's docs use it: tolerances per dtype and its messages
# (tensors, 0-d tensors, ints, NaN, sequences, mappings, custom msg), and the process-wide
# settings training scripts set (matmul precision, warn_always, `with torch.device`)
import torch
from torch.testing import assert_close

assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-7]))
pairs = [
    (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0]), {}),
    (torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[1.1, 2.0], [3.0, 4.5]]), {}),
    (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64), {}),
    (torch.tensor([1.0, 2.0]), torch.tensor([1.0]), {}),
    (torch.tensor([1, 2]), torch.tensor([1, 3]), {}),
    (torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), {}),
    (torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), {"equal_nan": True}),
    (torch.tensor(1.0), torch.tensor(1.5), {"rtol": 0.1, "atol": 0.1}),
    (torch.tensor([1.0]), torch.tensor([1.0]), {"rtol": 0.1}),
    (1.0, 1.0 + 1e-9, {}),
    (3, 4, {}),
    (
        [torch.tensor(1.0), torch.tensor([1.0, 2.0])],
        [torch.tensor(1.0), torch.tensor([1.0, 3.0])],
        {},
    ),
    ({"w": torch.tensor([1.0])}, {"w": torch.tensor([2.0])}, {}),
    ([1, 2], [1, 2, 3], {}),
    (torch.tensor([1.0]), 1.0, {}),
    (torch.tensor([1.0, 5.0]), torch.tensor([1.0, 2.0]), {"msg": "custom"}),
    (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]), {"msg": lambda m: "pre: " + m}),
]
for a, b, kw in pairs:
    try:
        assert_close(a, b, **kw)
        print("ok")
    except (AssertionError, ValueError, TypeError) as e:
        print(type(e).__name__, "|", e)
torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision(), torch.is_warn_always_enabled())
x = torch.tensor([-float("inf"), 1.0, float("inf"), float("nan")])
print(torch.isneginf(x), x.isposinf())
with torch.device("cpu"):
    print(torch.zeros(1).device)
