"""Rows for engine/_windows.py: the five window functions' values (float64 and float16 exact;
float32 within an ulp of ATen's Sleef cosines, checked against the float64 window), dtypes,
requires_grad, and PyTorch's refusals."""

from tests.engine.cases import Case

F64 = "dtype=torch.float64"
WINDOWS = ("hann", "hamming", "blackman", "bartlett", "kaiser")


def _rows(w: str) -> list[Case]:
    f = f"torch.{w}_window"
    return [
        Case(f"{w}_periodic", f"{f}(8, {F64})"),
        Case(f"{w}_symmetric", f"{f}(17, False, {F64})"),
        Case(f"{w}_periodic_kw", f"{f}(9, periodic=True, {F64})"),
        Case(f"{w}_empty", f"{f}(0)"),
        Case(f"{w}_one", f"{f}(1, False)"),
        Case(f"{w}_half", f"{f}(12, dtype=torch.float16)"),
        Case(f"{w}_float32_close", f"({f}(40) - {f}(40, {F64})).abs().max().item() < 1e-6"),
        Case(f"{w}_float32_dtype", f"{f}(5).dtype"),
        Case(f"{w}_requires_grad", f"{f}(4, {F64}, requires_grad=True)"),
        Case(f"{w}_negative", f"{f}(-1)", raises=True),
        Case(f"{w}_int_dtype", f"{f}(3, dtype=torch.int64)", raises=True),
    ]


CASES = [
    *(row for w in WINDOWS for row in _rows(w)),
    Case("hamming_alpha_beta", f"torch.hamming_window(10, False, 0.6, 0.3, {F64})"),
    Case("hamming_alpha", f"torch.hamming_window(7, True, 0.5, {F64})"),
    Case("kaiser_beta", f"torch.kaiser_window(11, False, 3.5, {F64})"),
    Case("kaiser_beta_periodic", f"torch.kaiser_window(6, True, 0.0, {F64})"),
    Case("hann_bool_dtype", "torch.hann_window(4, dtype=torch.bool)", raises=True),
    Case("bartlett_int32_dtype", "torch.bartlett_window(3, dtype=torch.int32)", raises=True),
    Case("hann_complex_dtype", "torch.hann_window(3, dtype=torch.complex64)", raises=True),
    Case("hann_float_length", "torch.hann_window(3.0)", raises=True),
    Case("hann_tensor_length", "torch.hann_window(torch.tensor(4), dtype=torch.float64)"),
    Case("hann_float_tensor_length", "torch.hann_window(torch.tensor(4.0))", raises=True),
]
