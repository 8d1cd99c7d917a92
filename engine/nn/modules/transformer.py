"""`nn.TransformerEncoderLayer` and `nn.TransformerEncoder` (post- or pre-norm), on the engine's
MultiheadAttention; the general path only (PyTorch's fused inference path agrees in value).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from engine._tensor import Tensor
from engine._warn import warn
from engine.nn import functional as F
from engine.nn.modules.attention import MultiheadAttention
from engine.nn.modules.container import ModuleList
from engine.nn.modules.dropout import Dropout
from engine.nn.modules.linear import Linear
from engine.nn.modules.module import Module
from engine.nn.modules.normalization import LayerNorm

_ACTIVATIONS: dict[str, Callable[..., Tensor]] = {"relu": F.relu, "gelu": F.gelu}


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm."""

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: Any = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, dtype=dtype
        )
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, dtype=dtype)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, dtype=dtype)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            if activation not in _ACTIVATIONS:
                raise RuntimeError(f"activation should be relu/gelu, not {activation}")
            activation = _ACTIVATIONS[activation]
        self.activation_relu_or_gelu = (
            1 if activation is F.relu else 2 if activation is F.gelu else 0
        )
        self.activation = activation

    def forward(
        self,
        src: Tensor,
        src_mask: Any = None,
        src_key_padding_mask: Any = None,
        is_causal: bool = False,
    ) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask))
        return self.norm2(x + self._ff_block(x))  # type: ignore[no-any-return]

    def _sa_block(self, x: Tensor, attn_mask: Any, key_padding_mask: Any) -> Tensor:
        out = self.self_attn(
            x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask, need_weights=False
        )[0]
        return self.dropout1(out)  # type: ignore[no-any-return]

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)  # type: ignore[no-any-return]


class TransformerEncoder(Module):
    """`num_layers` deep copies of one encoder layer (so they start with equal weights)."""

    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None:
        super().__init__()
        self.layers = ModuleList([copy.deepcopy(encoder_layer) for _ in range(num_layers)])
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why = _why_not_fast(encoder_layer)
        if enable_nested_tensor and why:
            warn(
                "enable_nested_tensor is True, but self.use_nested_tensor is False because " + why,
            )
            self.use_nested_tensor = False

    def forward(
        self,
        src: Tensor,
        mask: Any = None,
        src_key_padding_mask: Any = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        out = src
        for layer in self.layers:
            out = layer(out, src_mask=mask, src_key_padding_mask=src_key_padding_mask)
        return self.norm(out) if self.norm is not None else out


def _why_not_fast(layer: Any) -> str:
    """PyTorch's reason (in its words) for not using nested tensors, or '' if none."""
    if not isinstance(layer, TransformerEncoderLayer):
        return "encoder_layer was not TransformerEncoderLayer"
    sa = layer.self_attn
    checks = [
        (layer.norm_first, "encoder_layer.norm_first was True"),
        (
            not sa.batch_first,
            "encoder_layer.self_attn.batch_first was not True"
            "(use batch_first for better inference performance)",
        ),
        (sa.in_proj_bias is None, "encoder_layer.self_attn was passed bias=False"),
        (not layer.activation_relu_or_gelu, "encoder_layer.activation_relu_or_gelu was not True"),
        (
            layer.norm1.eps != layer.norm2.eps,
            "encoder_layer.norm1.eps was not equal to encoder_layer.norm2.eps",
        ),
        (sa.num_heads % 2 == 1, "encoder_layer.self_attn.num_heads is odd"),
    ]
    return next((why for bad, why in checks if bad), "")


__all__ = ["TransformerEncoder", "TransformerEncoderLayer"]
