"""Adafactor: Adam's second moment kept factored (a row and a column mean of squared gradients
for each matrix, their outer product as the estimate), relative step sizes and update clipping.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.optim.optimizer import Array, Optimizer, step_count


class Adafactor(Optimizer):
    """PyTorch's `torch.optim.Adafactor`: beta2 grows as 1 - step ** beta2_decay; the step is
    lr-capped 1 / sqrt(step) times the parameter's RMS (at least eps2), the update clipped to
    RMS d."""

    def __init__(
        self,
        params: Any,
        lr: float = 1e-2,
        beta2_decay: float = -0.8,
        eps: tuple[float | None, float] = (None, 1e-3),
        d: float = 1.0,
        weight_decay: float = 0.0,
        *,
        foreach: Any = None,
        maximize: bool = False,
    ) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not lr >= 0.0:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not beta2_decay <= 0.0:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not eps[0] >= 0.0:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not eps[1] >= 0.0:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not d >= 1.0:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not weight_decay >= 0.0:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(
            lr=lr,
            beta2_decay=beta2_decay,
            eps=eps,
            d=d,
            weight_decay=weight_decay,
            foreach=foreach,
            maximize=maximize,
        )
        super().__init__(params, defaults)

    def _update(self, p: Tensor, grad: Array, group: dict[str, Any], state: dict[str, Any]) -> None:
        a = p._d
        dt = a.dtype.type
        if group["maximize"]:
            grad = -grad
        if "step" not in state:  # the factored moments for a matrix, one variance otherwise
            state["step"] = make(np.asarray(0.0, np.float32), False, None, 0)
            if grad.ndim > 1:
                row = list(grad.shape)
                row[-1] = 1
                col = list(grad.shape)
                col[-2] = 1
                state["row_var"] = make(np.zeros(row, a.dtype), False, None, 0)
                state["col_var"] = make(np.zeros(col, a.dtype), False, None, 0)
            else:
                state["variance"] = make(np.zeros_like(grad), False, None, 0)
        step = step_count(state)
        lr = float(group["lr"])
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = float(np.finfo(a.dtype).eps)
        weight = step ** group["beta2_decay"]  # 1 - beta2
        rho = min(lr, 1 / step**0.5)
        rms = float(np.sqrt(np.sum(a * a, dtype=a.dtype))) / a.size**0.5
        alpha = max(eps2, rms) * rho
        if group["weight_decay"] != 0:
            a *= dt(1 - lr * group["weight_decay"])
        if grad.ndim > 1:
            row_var, col_var = state["row_var"]._d, state["col_var"]._d
            row_mean = np.sum(grad * grad, axis=-1, keepdims=True, dtype=a.dtype) / dt(
                grad.shape[-1]
            )
            col_mean = np.sum(grad * grad, axis=-2, keepdims=True, dtype=a.dtype) / dt(
                grad.shape[-2]
            )
            row_var += dt(weight) * (row_mean - row_var)
            col_var += dt(weight) * (col_mean - col_var)
            estimate = (row_var @ col_var) / np.maximum(
                row_var.mean(axis=-2, keepdims=True), dt(eps1)
            )
        else:
            variance = state["variance"]._d
            variance += dt(weight) * (grad * grad - variance)
            estimate = variance.copy()
        update = grad / np.sqrt(np.maximum(estimate, dt(eps1 * eps1)))
        norm = float(np.sqrt(np.sum(update * update, dtype=a.dtype)))
        denom = max(1.0, norm / (update.size**0.5 * group["d"]))
        a += dt(-alpha / denom) * update.astype(a.dtype)
