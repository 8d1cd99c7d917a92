"""The recurrent cells: one time step of RNN (tanh/relu), LSTM and GRU, and their modules.

The step follows ATen's cells term by term (`linear_hh(h).add_(gi)`, gates split by
unsafe_chunk, GRU's `(h - n) * z + n`), so values and next_functions match PyTorch's CPU kernels.
"""

from __future__ import annotations

import math
from typing import Any

from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def stack(ts: list[Tensor], dim: int = 0) -> Tensor:
    from engine.ops.tensor_shape import stack

    return stack(ts, dim)


def cat(ts: list[Tensor], dim: int) -> Tensor:
    import engine

    return engine.cat(ts, dim)


def zeros(*shape: int, like: Tensor) -> Tensor:
    from engine._creation import zeros

    return zeros(shape, dtype=like.dtype)


def _unsafe_chunk(t: Tensor, n: int) -> tuple[Tensor, ...]:
    """ATen's cells split their gates with unsafe_chunk: one UnsafeSplitBackward0 node."""
    from engine.ops.tensor_shape import unsafe_chunk

    return unsafe_chunk(t, n, 1)


def rnn_step(
    mode: str, gi: Tensor, h: Any, w_hh: Tensor, b_hh: Tensor | None, w_hr: Tensor | None = None
) -> Any:
    """One time step given the input projection `gi`; h is a tensor, or (h, c) for LSTM
    (whose h is projected by `w_hr` when the LSTM has proj_size).

    Operand order as ATen's cells (`linear_hh(h).add_(gi)`), so next_functions match.
    """
    if mode == "LSTM":
        hx, cx = h
        gates = F.linear(hx, w_hh, b_hh) + gi
        i, f, g, o = _unsafe_chunk(gates, 4)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        cy = f * cx + i * g
        hy = o * cy.tanh()
        return (hy if w_hr is None else hy.matmul(w_hr.t())), cy
    if mode == "GRU":
        gh = F.linear(h, w_hh, b_hh)
        i_r, i_z, i_n = _unsafe_chunk(gi, 3)
        h_r, h_z, h_n = _unsafe_chunk(gh, 3)
        r = (h_r + i_r).sigmoid()
        z = (h_z + i_z).sigmoid()
        n = (i_n + h_n * r).tanh()
        return (h - n) * z + n
    pre = F.linear(h, w_hh, b_hh) + gi
    return pre.tanh() if mode == "RNN_TANH" else pre.relu()


class _CellBase(Module):
    _mode = "RNN_TANH"

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
        mode: str | None = None,
    ) -> None:
        from engine._creation import empty

        super().__init__()
        if mode is not None:
            self._mode = mode
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        n = GATES[self._mode] * hidden_size
        self.weight_ih = Parameter(empty(n, input_size, dtype=dtype))
        self.weight_hh = Parameter(empty(n, hidden_size, dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty(n, dtype=dtype))
            self.bias_hh = Parameter(empty(n, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        from engine.nn import init

        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if not self.bias:
            s += f", bias={self.bias}"
        nl = getattr(self, "nonlinearity", "tanh")
        if nl != "tanh":
            s += f", nonlinearity={nl}"
        return s

    def _run(self, input: Tensor, hx: Any) -> Any:
        batched = input.ndim == 2
        x = input if batched else input.unsqueeze(0)
        if hx is None:
            h0 = zeros(x.shape[0], self.hidden_size, like=x)
            hx = (h0, h0) if self._mode == "LSTM" else h0
        elif not batched:
            hx = tuple(h.unsqueeze(0) for h in hx) if self._mode == "LSTM" else hx.unsqueeze(0)
        gi = F.linear(x, self.weight_ih, self.bias_ih)
        out = rnn_step(self._mode, gi, hx, self.weight_hh, self.bias_hh)
        if not batched:
            out = tuple(o.squeeze(0) for o in out) if self._mode == "LSTM" else out.squeeze(0)
        return out


class RNNCell(_CellBase):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(input_size, hidden_size, bias, device, dtype, mode)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        return self._run(input, hx)  # type: ignore[no-any-return]


class LSTMCell(_CellBase):
    """One LSTM step: returns (h', c')."""

    _mode = "LSTM"

    def forward(self, input: Tensor, hx: Any = None) -> tuple[Tensor, Tensor]:
        return self._run(input, hx)  # type: ignore[no-any-return]


class GRUCell(_CellBase):
    """One GRU step: returns h'."""

    _mode = "GRU"

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        return self._run(input, hx)  # type: ignore[no-any-return]
