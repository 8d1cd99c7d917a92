"""RNN, LSTM, GRU and their cells, composed of engine primitives.

The cells follow ATen's formulas term by term (e.g. GRU's `(h - n) * z + n`), so values match
PyTorch's CPU kernels; PyTorch's LSTM layer is one fused MkldnnRnnLayerBackward0 node, which
the engine draws as its parts instead.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

from engine._dtype import float32
from engine._tensor import Tensor
from engine.autograd.engine import WARNED
from engine.autograd.graph import retype
from engine.nn import functional as F
from engine.nn.modules.module import Module
from engine.nn.parameter import Parameter

# ATen's CPU LSTM runs float32 in oneDNN's fused layer (MkldnnRnnLayerBackward0), other dtypes
# and projecting LSTMs cell by cell (the latter with a warning)
_PROJ_WARNING = (
    "LSTM with projections is not supported with oneDNN. Using default implementation. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)"
)
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _stack(ts: list[Tensor], dim: int = 0) -> Tensor:
    from engine.ops.tensor_shape import stack

    return stack(ts, dim)


def _cat(ts: list[Tensor], dim: int) -> Tensor:
    import engine

    return engine.cat(ts, dim)  # type: ignore[attr-defined, no-any-return]


def _zeros(*shape: int, like: Tensor) -> Tensor:
    from engine._creation import zeros

    return zeros(*shape, dtype=like.dtype)


def _unsafe_chunk(t: Tensor, n: int) -> tuple[Tensor, ...]:
    """ATen's cells split their gates with unsafe_chunk: one UnsafeSplitBackward0 node."""
    parts: tuple[Tensor, ...] = t.chunk(n, 1)  # type: ignore[attr-defined]
    if parts[0]._fn is not None:
        retype(parts[0]._fn, "UnsafeSplitBackward0")
    return parts


def _hidden_slice(h: Any, start: int, end: int) -> Any:
    if isinstance(h, tuple):
        return tuple(t.narrow(0, start, end - start) for t in h)
    return h.narrow(0, start, end - start)


def _hidden_cat(hs: list[Any]) -> Any:
    if isinstance(hs[0], tuple):
        return tuple(_cat(list(parts), 0) for parts in zip(*hs, strict=True))
    return _cat(hs, 0)


def _permute(hx: Any, index: Tensor) -> Any:
    """PyTorch's permute_hidden: the batch dimension (1) reordered by index_select."""
    if isinstance(hx, tuple):
        return tuple(h.index_select(1, index) for h in hx)
    return hx.index_select(1, index)


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
        return (hy if w_hr is None else hy.matmul(w_hr.t())), cy  # type: ignore[attr-defined]
    if mode == "GRU":
        gh = F.linear(h, w_hh, b_hh)
        i_r, i_z, i_n = _unsafe_chunk(gi, 3)
        h_r, h_z, h_n = _unsafe_chunk(gh, 3)
        r = (h_r + i_r).sigmoid()
        z = (h_z + i_z).sigmoid()
        n = (i_n + h_n * r).tanh()
        return (h - n) * z + n
    pre = F.linear(h, w_hh, b_hh) + gi
    return pre.tanh() if mode == "RNN_TANH" else pre.relu()  # type: ignore[attr-defined]


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
        n = _GATES[self._mode] * hidden_size
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
        x = input if batched else input.unsqueeze(0)  # type: ignore[attr-defined]
        if hx is None:
            h0 = _zeros(x.shape[0], self.hidden_size, like=x)
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


class RNNBase(Module):
    """Stacked (optionally bidirectional) recurrent layers over a whole sequence."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        from engine._creation import empty

        super().__init__()
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        self.dropout, self.bidirectional = float(dropout), bidirectional
        self.proj_size = proj_size
        real = proj_size or hidden_size
        dirs = 2 if bidirectional else 1
        n = _GATES[mode] * hidden_size
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for d in range(dirs):
                sfx = f"_l{layer}" + ("_reverse" if d else "")
                in_size = input_size if layer == 0 else real * dirs
                shapes: list[tuple[str, tuple[int, ...]]] = [
                    ("weight_ih", (n, in_size)),
                    ("weight_hh", (n, real)),
                ]
                if bias:
                    shapes += [("bias_ih", (n,)), ("bias_hh", (n,))]
                if proj_size:
                    shapes.append(("weight_hr", (proj_size, hidden_size)))
                for name, shape in shapes:
                    setattr(self, name + sfx, Parameter(empty(*shape, dtype=dtype)))
                self._all_weights.append([name + sfx for name, _ in shapes])
                self._flat_weights_names.extend(self._all_weights[-1])
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list[Tensor]:
        return [getattr(self, name) for name in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of each layer and direction, in PyTorch's order."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def reset_parameters(self) -> None:
        from engine.nn import init

        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for w in self.parameters():
            init.uniform_(w, -stdv, stdv)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _weights(self, layer: int, d: int) -> tuple[Tensor, Tensor, Any, Any, Any]:
        sfx = f"_l{layer}" + ("_reverse" if d else "")
        b_ih = getattr(self, "bias_ih" + sfx) if self.bias else None
        b_hh = getattr(self, "bias_hh" + sfx) if self.bias else None
        w_hr = getattr(self, "weight_hr" + sfx) if self.proj_size else None
        w_ih, w_hh = getattr(self, "weight_ih" + sfx), getattr(self, "weight_hh" + sfx)
        return w_ih, w_hh, b_ih, b_hh, w_hr

    def _zero_hx(self, batch: int, like: Tensor) -> Any:
        n = self.num_layers * (2 if self.bidirectional else 1)
        h = _zeros(n, batch, self.proj_size or self.hidden_size, like=like)
        return (h, _zeros(n, batch, self.hidden_size, like=like)) if self.mode == "LSTM" else h

    def _direction(self, x: Tensor, h: Any, layer: int, d: int) -> tuple[Tensor, Any]:
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, d)
        steps = list(F.linear(x, w_ih, b_ih).unbind(0))  # type: ignore[attr-defined]
        outs = []
        for gi in reversed(steps) if d else steps:
            h = rnn_step(self.mode, gi, h, w_hh, b_hh, w_hr)
            outs.append(h[0] if self.mode == "LSTM" else h)
        if d:
            outs.reverse()
        out = _stack(outs, 0)
        if self.mode == "LSTM" and w_hr is None and x.dtype == float32 and out._fn is not None:
            # PyTorch's CPU float32 LSTM layer is one fused node; its output carries that name
            retype(out._fn, "MkldnnRnnLayerBackward0")
        return out, h

    def flatten_parameters(self) -> None:
        """cuDNN's packed weight buffer; on CPU PyTorch does nothing either."""

    def _check_dims(self, input: Tensor, hx: Any) -> None:
        """PyTorch's forward: 2-D or 3-D input, and an hx of the same kind."""
        lstm = self.mode == "LSTM"
        if input.ndim not in (2, 3):
            name = {"LSTM": "LSTM", "GRU": "GRU"}.get(self.mode, "RNN")
            tail = " tensor instead" if name == "RNN" else " instead"
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.ndim}D{tail}")
        if hx is None:
            return
        want, kind = (3, "batched 3-D") if input.ndim == 3 else (2, "unbatched 2-D")
        if lstm and (hx[0].ndim != want or hx[1].ndim != want):
            raise RuntimeError(
                f"For {kind} input, hx and cx should also be {want}-D but got "
                f"({hx[0].ndim}-D, {hx[1].ndim}-D) tensors"
            )
        if not lstm and hx.ndim != want:
            raise RuntimeError(
                f"For {kind} input, hx should also be {want}-D but got {hx.ndim}-D tensor"
            )

    def _check_forward_args(
        self, input: Tensor, hx: Any, batch: int, unbatched: bool = False
    ) -> None:
        """PyTorch's check_forward_args: dtype, input size, then hidden sizes (hx as given)."""
        w = self.weight_ih_l0
        if input.dtype != w.dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype ({w.dtype}). "
                f"Convert input: input.to({w.dtype}), or convert model: model.to({input.dtype})"
            )
        if self.input_size != input.shape[-1]:
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. "
                f"Expected {self.input_size}, got {input.shape[-1]}"
            )
        if hx is None:
            return
        n = self.num_layers * (2 if self.bidirectional else 1)
        h_size = (n, batch, self.proj_size or self.hidden_size)
        c_size = (n, batch, self.hidden_size)
        named = [("hidden", hx, h_size)]
        if self.mode == "LSTM":
            named = [("hidden[0]", hx[0], h_size), ("hidden[1]", hx[1], c_size)]
        for name, h, want in named:
            # an unbatched hx is checked as PyTorch sees it, unsqueezed at dim 1
            shape = (h.shape[0], 1, *h.shape[1:]) if unbatched else tuple(h.shape)
            if shape != want:
                raise RuntimeError(f"Expected {name} size {want}, got {list(shape)}")

    def _packed_direction(
        self, data: Tensor, sizes: list[int], h: Any, layer: int, d: int
    ) -> tuple[Tensor, Any]:
        """ATen's PackedLayer (d=0) / ReversedPackedLayer (d=1): at step t only the first
        sizes[t] rows advance; finished rows' states are sliced off (forward) or joined in
        (reverse) as the batch shrinks or grows."""
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, d)
        gi_all = F.linear(data, w_ih, b_ih)
        outs: list[Tensor] = []
        if d == 0:
            offset, last, done = 0, sizes[0], []
            for b in sizes:
                if b < last:
                    done.append(_hidden_slice(h, b, last))
                    h = _hidden_slice(h, 0, b)
                h = rnn_step(self.mode, gi_all.narrow(0, offset, b), h, w_hh, b_hh, w_hr)  # type: ignore[attr-defined]
                outs.append(h[0] if self.mode == "LSTM" else h)
                offset, last = offset + b, b
            done.append(h)
            return _cat(outs, 0), _hidden_cat(done[::-1])
        h_in, offset, last = h, data.shape[0], sizes[-1]
        h = _hidden_slice(h_in, 0, last)
        for b in reversed(sizes):
            if b > last:
                h = _hidden_cat([h, _hidden_slice(h_in, last, b)])
            h = rnn_step(self.mode, gi_all.narrow(0, offset - b, b), h, w_hh, b_hh, w_hr)  # type: ignore[attr-defined]
            outs.append(h[0] if self.mode == "LSTM" else h)
            offset, last = offset - b, b
        return _cat(outs[::-1], 0), h

    def _forward_packed(self, packed: Any, hx: Any) -> tuple[Any, Any]:
        """PyTorch's packed path: hx permuted into sorted order, h_n back out of it."""
        from engine.nn.rnn_utils import PackedSequence

        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = [int(n) for n in batch_sizes.tolist()]
        dirs = 2 if self.bidirectional else 1
        lstm = self.mode == "LSTM"
        if hx is None:
            hx = self._zero_hx(sizes[0], data)
        elif sorted_indices is not None:
            hx = _permute(hx, sorted_indices)
        h_all = [list(hx[0].unbind(0)), list(hx[1].unbind(0))] if lstm else [list(hx.unbind(0))]
        finals: list[list[Tensor]] = [[] for _ in h_all]
        x = data
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                h0 = (h_all[0][k], h_all[1][k]) if lstm else h_all[0][k]
                out, hn = self._packed_direction(x, sizes, h0, layer, d)
                outs.append(out)
                for j, t in enumerate(hn if lstm else (hn,)):
                    finals[j].append(t)
            x = outs[0] if dirs == 1 else _cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        hs = tuple(_stack(f, 0) for f in finals)
        hn_all = (hs[0], hs[1]) if lstm else hs[0]
        if unsorted_indices is not None:
            hn_all = _permute(hn_all, unsorted_indices)
        return PackedSequence(x, batch_sizes, sorted_indices, unsorted_indices), hn_all

    def forward(self, input: Any, hx: Any = None) -> tuple[Any, Any]:
        from engine.nn.rnn_utils import PackedSequence

        if isinstance(input, PackedSequence):
            if self.mode != "LSTM":  # PyTorch's LSTM checks nothing of a packed input
                self._check_forward_args(input.data, hx, int(input.batch_sizes[0]))
            return self._forward_packed(input, hx)
        self._check_dims(input, hx)
        batch = 1 if input.ndim == 2 else input.shape[0 if self.batch_first else 1]
        self._check_forward_args(input, hx, batch, unbatched=input.ndim == 2)
        batched = input.ndim == 3
        bdim = 0 if self.batch_first else 1  # PyTorch unsqueezes unbatched input there
        x = input if batched else input.unsqueeze(bdim)  # type: ignore[attr-defined]
        if self.batch_first:
            x = x.transpose(0, 1)  # type: ignore[attr-defined]
        dirs = 2 if self.bidirectional else 1
        lstm = self.mode == "LSTM"
        if hx is None:
            hx = self._zero_hx(x.shape[1], x)
        elif not batched:
            hx = tuple(h.unsqueeze(1) for h in hx) if lstm else hx.unsqueeze(1)
        if lstm and self.proj_size and x.dtype == float32 and "lstm_proj" not in WARNED:
            WARNED.add("lstm_proj")  # TORCH_WARN_ONCE: once per process
            warnings.warn(_PROJ_WARNING, UserWarning, stacklevel=2)
        h_all = [list(hx[0].unbind(0)), list(hx[1].unbind(0))] if lstm else [list(hx.unbind(0))]
        finals: list[list[Tensor]] = [[] for _ in h_all]
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                h0 = (h_all[0][k], h_all[1][k]) if lstm else h_all[0][k]
                out, hn = self._direction(x, h0, layer, d)
                outs.append(out)
                for j, t in enumerate(hn if lstm else (hn,)):
                    finals[j].append(t)
            x = outs[0] if dirs == 1 else _cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        if self.batch_first:  # ATen's RNN/GRU transpose back in place, LSTM not
            x = x.transpose(0, 1) if lstm else x.transpose_(0, 1)  # type: ignore[attr-defined]
        hs = [_stack(f, 0) for f in finals]
        if not batched:
            x, hs = x.squeeze(bdim), [h.squeeze(1) for h in hs]  # type: ignore[attr-defined]
        return x, (hs[0], hs[1]) if lstm else hs[0]


class RNN(RNNBase):
    """Elman RNN: tanh (or relu) over W_ih x + b_ih + W_hh h + b_hh."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        nl = kwargs.pop("nonlinearity", "tanh")
        if nl not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nl}'. Select from 'tanh' or 'relu'.")
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("RNN_TANH" if nl == "tanh" else "RNN_RELU", *args, **kwargs)
        self.nonlinearity = nl


class LSTM(RNNBase):
    """Long short-term memory; returns output, (h_n, c_n)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)


class GRU(RNNBase):
    """Gated recurrent unit; returns output, h_n."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


__all__ = ["GRU", "LSTM", "RNN", "GRUCell", "LSTMCell", "RNNBase", "RNNCell"]
