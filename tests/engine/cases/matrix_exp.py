"""Rows for engine/ops/matrix_exp.py: values, batches, the three spellings, second
derivatives through the block-matrix backward, and PyTorch's refusals."""

from tests.engine.cases import Case

CASES = [
    Case("linalg_matrix_exp", "torch.linalg.matrix_exp(a)", {"a": (3, 3)}, domain=(-1.0, 1.0)),
    Case("matrix_exp_batch", "torch.matrix_exp(a)", {"a": (2, 2, 2)}, domain=(-1.0, 1.0)),
    Case("matrix_exp_method", "a.matrix_exp()", {"a": (1, 1)}),
    Case("matrix_exp_float32", "a.float().matrix_exp().dtype", {"a": (2, 2)}),
    Case("matrix_exp_empty", "torch.linalg.matrix_exp(torch.zeros(0, 0))"),
    Case("matrix_exp_not_square", "torch.linalg.matrix_exp(a)", {"a": (2, 3)}, raises=True),
    Case("matrix_exp_vector", "torch.linalg.matrix_exp(a)", {"a": (3,)}, raises=True),
    Case(
        "matrix_exp_int", "torch.linalg.matrix_exp(torch.ones(2, 2, dtype=torch.long))", raises=True
    ),
]
