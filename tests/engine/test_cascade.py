"""engine/ops/cascade.py: the short-row fast path adds in the kernel's order, bit for bit.

`inner_sum` takes a shortcut for rows shorter than 8 vectors; `row_sums` walks the kernel's
steps for any length. Both must give the same bits, signed zeros, infinities and NaNs included.
"""

from __future__ import annotations

import numpy as np
import pytest

from engine.ops import cascade


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows", [1, 3])
def test_short_rows_match_the_kernel_steps(dtype: type, rows: int) -> None:
    rng = np.random.default_rng(0)
    lanes = cascade._LANES[np.dtype(dtype)]
    for n in range(1, 8 * lanes + 3):
        for fill in ("random", "negative zeros", "special"):
            a = (rng.standard_normal((rows, n)) * 10.0 ** rng.uniform(-3, 6, (rows, n))).astype(
                dtype
            )
            if fill == "negative zeros":
                a[...] = -0.0
            elif fill == "special":
                a.flat[rng.integers(0, a.size)] = rng.choice([np.inf, -np.inf, np.nan, -0.0])
            got, want = cascade.inner_sum(a, lanes), cascade.row_sums(a, lanes)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (n, fill, a)
