"""`nn.MultiheadAttention`, written as PyTorch's `F.multi_head_attention_forward` (the general
path: the fused inference fast path gives the same values up to rounding).

>>> torch.nn.MultiheadAttention(4, 2)
MultiheadAttention(
  (out_proj): NonDynamicallyQuantizableLinear(in_features=4, out_features=4, bias=True)
)
"""

from __future__ import annotations

import importlib
import math
from typing import TYPE_CHECKING, Any

from engine._tensor import Tensor
from engine.nn import functional as F
from engine.nn import init
from engine.nn.modules.linear import Linear, empty_param
from engine.nn.modules.module import Module

if TYPE_CHECKING:  # the engine's namespace, typed (engine/_torch_surface.pyi)
    import engine as torch
else:
    torch = importlib.import_module("engine")


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under another name (so PyTorch's quantizer leaves attention alone)."""


def _canonical_mask(mask: Any, dtype: Any) -> Any:
    """A boolean mask becomes an additive float mask: -inf where True."""
    if mask is None or mask.is_floating_point():
        return mask
    return torch.zeros_like(mask, dtype=dtype).masked_fill_(mask, float("-inf"))


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Any) -> Any:
    e = q.size(-1)
    if k is v and q is k:
        proj = F.linear(q, w, b)
        proj = proj.unflatten(-1, (3, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return proj[0], proj[1], proj[2]
    if k is v:
        w_q, w_kv = w.split([e, e * 2])
        b_q, b_kv = (None, None) if b is None else b.split([e, e * 2])
        kv = F.linear(k, w_kv, b_kv)
        kv = kv.unflatten(-1, (2, e)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return F.linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return F.linear(q, w_q, b_q), F.linear(k, w_k, b_k), F.linear(v, w_v, b_v)


class MultiheadAttention(Module):
    """Attention over `num_heads` slices of `embed_dim` (packed q/k/v projection)."""

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                f"and num_heads={num_heads} instead"
            )
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = empty_param(3 * embed_dim, embed_dim, dtype=dtype)
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:  # separate projections, as PyTorch keeps them when kdim/vdim differ
            self.q_proj_weight = empty_param(embed_dim, embed_dim, dtype=dtype)
            self.k_proj_weight = empty_param(embed_dim, self.kdim, dtype=dtype)
            self.v_proj_weight = empty_param(embed_dim, self.vdim, dtype=dtype)
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = empty_param(3 * embed_dim, dtype=dtype)
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias, dtype=dtype)
        self.bias_k: Any = None
        self.bias_v: Any = None
        if add_bias_kv:  # one learned key and value appended to every sequence
            self.bias_k = empty_param(1, 1, embed_dim, dtype=dtype)
            self.bias_v = empty_param(1, 1, embed_dim, dtype=dtype)
        self.add_zero_attn = add_zero_attn
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for w in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
            init.xavier_normal_(self.bias_v)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Any = None,
        need_weights: bool = True,
        attn_mask: Any = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Any]:
        batched = query.dim() == 3
        if self.batch_first and batched:
            if key is value and query is key:
                query = key = value = query.transpose(1, 0)
            elif key is value:
                query, key = (x.transpose(1, 0) for x in (query, key))
                value = key
            else:
                query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        out, weights = _mha_forward(
            self, query, key, value, key_padding_mask, attn_mask, need_weights, is_causal
        )
        if weights is None:
            pass
        elif average_attn_weights:
            weights = weights.mean(dim=1)
        if not batched:
            out = out.squeeze(1)
            weights = weights.squeeze(0) if weights is not None else None
        elif self.batch_first:
            out = out.transpose(1, 0)
        return out, weights


def _shape_check(
    query: Tensor, key: Tensor, value: Tensor, kpm: Any, attn_mask: Any, num_heads: int
) -> None:
    """PyTorch's `_mha_shape_check` (AssertionErrors, as it raises them)."""
    q = query.dim()
    if q not in (2, 3):
        raise AssertionError(
            f"query should be unbatched 2D or batched 3D tensor but received {q}-D query tensor"
        )
    kind = "batched (3-D)" if q == 3 else "unbatched (2-D)"
    if key.dim() != q or value.dim() != q:
        raise AssertionError(
            f"For {kind} `query`, expected `key` and `value` to be {q}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively"
        )
    if kpm is not None and kpm.dim() != q - 1:
        raise AssertionError(
            f"For {kind} `query`, expected `key_padding_mask` to be `None` or {q - 1}-D but "
            f"found {kpm.dim()}-D tensor instead"
        )
    if attn_mask is not None:
        if attn_mask.dim() not in (2, 3):
            raise AssertionError(
                f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.dim()}-D tensor instead"
            )
        if q == 2 and attn_mask.dim() == 3:
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.shape != expected:
                raise AssertionError(
                    f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}"
                )


def _check_attn_mask(attn_mask: Tensor, size: tuple[int, int], batch: int) -> Tensor:
    """PyTorch's checks of a 2-D (L, S) or 3-D (N * heads, L, S) mask; 2-D gains a batch dim."""
    if attn_mask.dim() == 2:
        if attn_mask.shape != size:
            raise RuntimeError(
                f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be {size}."
            )
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        want = (batch, *size)
        if attn_mask.shape != want:
            raise RuntimeError(
                f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be {want}."
            )
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def _one_more_position(attn_mask: Any, kpm: Any) -> tuple[Any, Any]:
    """The masks padded with a zero (attend) for an appended source position."""
    return (
        None if attn_mask is None else F.pad(attn_mask, (0, 1)),
        None if kpm is None else F.pad(kpm, (0, 1)),
    )


def _mha_forward(
    m: MultiheadAttention,
    query: Tensor,
    key: Tensor,
    value: Tensor,
    kpm: Any,
    attn_mask: Any,
    need_weights: bool = True,
    is_causal: bool = False,
) -> tuple[Any, Any]:
    """`F.multi_head_attention_forward`: with need_weights, the explicit path (weights come
    back per head); without, scaled_dot_product_attention, as PyTorch records it."""
    _shape_check(query, key, value, kpm, attn_mask, m.num_heads)
    if query.dim() == 2:
        query, key, value = (t.unsqueeze(1) for t in (query, key, value))
        kpm = kpm.unsqueeze(0) if kpm is not None else None
    tgt_len, bsz, embed_dim = query.shape
    kpm = _canonical_mask(kpm, query.dtype)
    attn_mask = _canonical_mask(attn_mask, query.dtype)
    heads, hd = m.num_heads, m.head_dim
    if m._qkv_same_embed_dim:
        if key.shape != value.shape:
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        q, k, v = _in_projection_packed(query, key, value, m.in_proj_weight, m.in_proj_bias)
    else:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(
                f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                f"{value.shape[:2]}"
            )
        b = m.in_proj_bias
        b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
        q = F.linear(query, m.q_proj_weight, b_q)
        k = F.linear(key, m.k_proj_weight, b_k)
        v = F.linear(value, m.v_proj_weight, b_v)
    if attn_mask is not None:
        attn_mask = _check_attn_mask(attn_mask, (tgt_len, key.shape[0]), bsz * heads)
    if m.bias_k is not None:  # the learned key/value, one more source position
        k = torch.cat([k, m.bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, m.bias_v.repeat(1, bsz, 1)])
        attn_mask, kpm = _one_more_position(attn_mask, kpm)
    q = q.view(tgt_len, bsz * heads, hd).transpose(0, 1)
    k = k.view(k.shape[0], bsz * heads, hd).transpose(0, 1)
    v = v.view(v.shape[0], bsz * heads, hd).transpose(0, 1)
    if m.add_zero_attn:  # a zero key/value, one more source position
        zeros = torch.zeros((bsz * heads, 1, hd), dtype=k.dtype)
        k = torch.cat([k, zeros], dim=1)
        v = torch.cat([v, torch.zeros((bsz * heads, 1, hd), dtype=v.dtype)], dim=1)
        attn_mask, kpm = _one_more_position(attn_mask, kpm)
    src_len = k.size(1)
    if kpm is not None:
        for i, want in enumerate((bsz, src_len)):
            if kpm.shape[i] != want:
                raise AssertionError(
                    f"Expected key_padded_mask.shape[{i}] to be {want}, but got {kpm.shape[i]}"
                )
        kpm = (
            kpm.view(bsz, 1, 1, src_len).expand(-1, heads, -1, -1).reshape(bsz * heads, 1, src_len)
        )
        attn_mask = kpm if attn_mask is None else attn_mask + kpm
    if not need_weights:
        if attn_mask is not None:
            if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
                attn_mask = attn_mask.unsqueeze(0)
            else:
                attn_mask = attn_mask.view(bsz, heads, -1, src_len)
        dropout_p = m.dropout if m.training else 0.0
        q4 = q.view(bsz, heads, tgt_len, hd)
        k4 = k.view(bsz, heads, src_len, hd)
        v4 = v.view(bsz, heads, src_len, hd)
        causal = is_causal and attn_mask is None
        o = F.scaled_dot_product_attention(q4, k4, v4, attn_mask, dropout_p, causal)
        o = o.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, embed_dim)
        o = F.linear(o, m.out_proj.weight, m.out_proj.bias)
        return o.view(tgt_len, bsz, o.size(1)), None
    q_scaled = q * math.sqrt(1.0 / float(hd))
    if attn_mask is not None:
        w = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    else:
        w = torch.bmm(q_scaled, k.transpose(-2, -1))
    w = F.softmax(w, dim=-1)
    if m.dropout > 0.0 and m.training:
        w = F.dropout(w, p=m.dropout)
    out = torch.bmm(w, v).transpose(0, 1).reshape(tgt_len * bsz, embed_dim)
    out = F.linear(out, m.out_proj.weight, m.out_proj.bias)
    return out.view(tgt_len, bsz, out.size(1)), w.view(bsz, heads, tgt_len, src_len)


__all__ = ["MultiheadAttention", "NonDynamicallyQuantizableLinear"]
