"""`torch.backends.cuda`: TF32 flags people toggle; CUDA is not built."""

from __future__ import annotations


class _MatmulFlags:
    """`torch.backends.cuda.matmul`: a settable `allow_tf32` flag."""

    allow_tf32 = False
    allow_fp16_reduced_precision_reduction = True


matmul = _MatmulFlags()


def is_built() -> bool:
    return False
