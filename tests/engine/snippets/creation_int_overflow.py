# Python ints that do not fit the dtype asked for: PyTorch's errors (and uint8's wrap-around
# of negative values), and ints past int64 with no dtype
import torch

cases = [
    ([[1, -2], [300, 4]], torch.int8),
    ([-1, -200], torch.uint8),
    ([256], torch.uint8),
    ([70000], torch.int16),
    ([2**40], torch.int32),
    ([2**70], torch.int64),
    ([1e40], torch.float16),
    ([5, 0], torch.bool),
    ([2**63], None),
    ([-(2**63) - 1], None),
    ([2**63 - 1, -(2**63)], None),
]
for values, dtype in cases:
    try:
        print(torch.tensor(values, dtype=dtype))
    except (RuntimeError, ValueError, OverflowError) as e:
        print(type(e).__name__, e)
