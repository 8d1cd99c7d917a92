"""Rows for engine/ops/vander.py: `torch.vander` and `torch.linalg.vander` (values, dtypes
for integers and bools, the graphs ATen builds) and PyTorch's refusals."""

from tests.engine.cases import Case

# PyTorch's own backward of torch.vander fails once N > 1 (its cumprod saved a view of the
# result that the next copy_ overwrites): the rows compare that error, no numerical check.
BROKEN = {"gradcheck": False}

CASES = [
    Case("vander", "torch.vander(v)", {"v": (3,)}, **BROKEN),
    Case("vander_n_increasing", "torch.vander(v, N=2, increasing=True)", {"v": (3,)}, **BROKEN),
    Case("vander_n4", "torch.vander(v, 4)", {"v": (3,)}, **BROKEN),
    Case("vander_n1", "torch.vander(v, N=1)", {"v": (3,)}),
    Case("vander_n0", "torch.vander(v, N=0)", {"v": (3,)}),
    Case("vander_int", "torch.vander(torch.tensor([1, 2, 3]))"),
    Case("vander_bool", "torch.vander(torch.tensor([True, False]))"),
    Case("vander_float32", "torch.vander(v.float())", {"v": (2,)}, gradcheck=False),
    Case("vander_2d", "torch.vander(a)", {"a": (2, 3)}, raises=True),
    Case("vander_negative_n", "torch.vander(v, N=-1)", {"v": (3,)}, raises=True),
    Case("linalg_vander", "torch.linalg.vander(v)", {"v": (3,)}),
    Case("linalg_vander_batch_n", "torch.linalg.vander(a, N=4)", {"a": (2, 3)}),
    Case("linalg_vander_scalar", "torch.linalg.vander(s, N=3)", {"s": ()}),
    Case("linalg_vander_int", "torch.linalg.vander(torch.tensor([1, 2, 3], dtype=torch.int32))"),
    Case("linalg_vander_n1", "torch.linalg.vander(v, N=1)", {"v": (3,)}, raises=True),
    Case("linalg_vander_bool", "torch.linalg.vander(torch.tensor([True]))", raises=True),
    Case("linalg_vander_half", "torch.linalg.vander(v.half())", {"v": (2,)}, raises=True),
]
