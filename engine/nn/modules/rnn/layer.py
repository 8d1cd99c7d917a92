"""RNN, LSTM and GRU layers: stacked, optionally bidirectional, over a whole sequence or a
PackedSequence, with PyTorch's argument checks.

ATen's CPU float32 LSTM layer is one fused node (MkldnnRnnLayerBackward0); the engine computes its
steps and gives the stacked output that name. Other dtypes, projections and packed input run
cell by cell in PyTorch too.
"""

from __future__ import annotations

import math
from typing import Any

from engine._dtype import float32
from engine._tensor import Tensor
from engine._warn import warn
from engine.autograd.engine import WARNED
from engine.nn import functional as F
from engine.nn.modules.module import Module
from engine.nn.modules.rnn.cell import GATES, cat, rnn_step, stack, zeros
from engine.nn.modules.rnn.packed import packed_direction, permute
from engine.nn.parameter import Parameter
from engine.ops.tensor_shape import StackBackward0, stack_as

# ATen's CPU LSTM runs float32 in oneDNN's fused layer (MkldnnRnnLayerBackward0), other dtypes
# and projecting LSTMs cell by cell (the latter with a warning)
_PROJ_WARNING = (
    "LSTM with projections is not supported with oneDNN. Using default implementation. "
    "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/RNN.cpp:1512.)"
)


class MkldnnRnnLayerBackward0(StackBackward0):
    """The fused layer's node: the engine stacks the layer's steps, so its gradient is stack's."""

    __slots__ = ()
    _name = "MkldnnRnnLayerBackward0"
    _listed = False  # recorded by nn.LSTM, no op row's


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
        n = GATES[mode] * hidden_size
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
                    setattr(self, name + sfx, Parameter(empty(tuple(shape), dtype=dtype)))
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
        h = zeros(n, batch, self.proj_size or self.hidden_size, like=like)
        return (h, zeros(n, batch, self.hidden_size, like=like)) if self.mode == "LSTM" else h

    def _direction(self, x: Tensor, h: Any, layer: int, d: int) -> tuple[Tensor, Any]:
        w_ih, w_hh, b_ih, b_hh, w_hr = self._weights(layer, d)
        steps = list(F.linear(x, w_ih, b_ih).unbind(0))
        outs = []
        for gi in reversed(steps) if d else steps:
            h = rnn_step(self.mode, gi, h, w_hh, b_hh, w_hr)
            outs.append(h[0] if self.mode == "LSTM" else h)
        if d:
            outs.reverse()
        if self.mode == "LSTM" and w_hr is None and x.dtype == float32:
            # PyTorch's CPU float32 LSTM layer is one fused node; its output carries that name
            return stack_as(MkldnnRnnLayerBackward0, outs, 0), h
        return stack(outs, 0), h

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

    def _forward_packed(self, packed: Any, hx: Any) -> tuple[Any, Any]:
        """PyTorch's packed path: hx permuted into sorted order, h_n back out of it."""
        from engine.nn.utils.rnn import PackedSequence

        data, batch_sizes, sorted_indices, unsorted_indices = packed
        sizes = [int(n) for n in batch_sizes.tolist()]
        dirs = 2 if self.bidirectional else 1
        lstm = self.mode == "LSTM"
        if hx is None:
            hx = self._zero_hx(sizes[0], data)
        elif sorted_indices is not None:
            hx = permute(hx, sorted_indices)
        h_all = [list(hx[0].unbind(0)), list(hx[1].unbind(0))] if lstm else [list(hx.unbind(0))]
        finals: list[list[Tensor]] = [[] for _ in h_all]
        x = data
        for layer in range(self.num_layers):
            outs = []
            for d in range(dirs):
                k = layer * dirs + d
                h0 = (h_all[0][k], h_all[1][k]) if lstm else h_all[0][k]
                out, hn = packed_direction(self.mode, self._weights(layer, d), x, sizes, h0, d)
                outs.append(out)
                for j, t in enumerate(hn if lstm else (hn,)):
                    finals[j].append(t)
            x = outs[0] if dirs == 1 else cat(outs, -1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        hs = tuple(stack(f, 0) for f in finals)
        hn_all = (hs[0], hs[1]) if lstm else hs[0]
        if unsorted_indices is not None:
            hn_all = permute(hn_all, unsorted_indices)
        return PackedSequence(x, batch_sizes, sorted_indices, unsorted_indices), hn_all

    def forward(self, input: Any, hx: Any = None) -> tuple[Any, Any]:
        from engine.nn.utils.rnn import PackedSequence

        if isinstance(input, PackedSequence):
            if self.mode != "LSTM":  # PyTorch's LSTM checks nothing of a packed input
                self._check_forward_args(input.data, hx, int(input.batch_sizes[0]))
            return self._forward_packed(input, hx)
        self._check_dims(input, hx)
        batch = 1 if input.ndim == 2 else input.shape[0 if self.batch_first else 1]
        self._check_forward_args(input, hx, batch, unbatched=input.ndim == 2)
        batched = input.ndim == 3
        bdim = 0 if self.batch_first else 1  # PyTorch unsqueezes unbatched input there
        x = input if batched else input.unsqueeze(bdim)
        if self.batch_first:
            x = x.transpose(0, 1)
        dirs = 2 if self.bidirectional else 1
        lstm = self.mode == "LSTM"
        if hx is None:
            hx = self._zero_hx(x.shape[1], x)
        elif not batched:
            hx = tuple(h.unsqueeze(1) for h in hx) if lstm else hx.unsqueeze(1)
        if lstm and self.proj_size and x.dtype == float32 and "lstm_proj" not in WARNED:
            WARNED.add("lstm_proj")  # TORCH_WARN_ONCE: once per process
            warn(_PROJ_WARNING, UserWarning)
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
            x = outs[0] if dirs == 1 else cat(outs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        if self.batch_first:  # ATen's RNN/GRU transpose back in place, LSTM not
            x = x.transpose(0, 1) if lstm else x.transpose_(0, 1)
        hs = [stack(f, 0) for f in finals]
        if not batched:
            x, hs = x.squeeze(bdim), [h.squeeze(1) for h in hs]
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


__all__ = ["GRU", "LSTM", "RNN", "RNNBase"]
