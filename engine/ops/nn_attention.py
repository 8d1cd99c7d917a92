"""`F.scaled_dot_product_attention`: softmax(q k^T * scale + mask) v.

PyTorch's CPU dispatch picks its flash kernel for 4-D inputs (one node,
ScaledDotProductFlashAttentionForCpuBackward0, with edges to q, k, v); other shapes go through
the math composite (matmuls and a softmax), which is what the engine records for them too.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops import autocast as _autocast
from engine.ops._core import OpNode, record, record_multi
from engine.ops.matmul import matmul
from engine.ops.nn_ops import dropout_noise
from engine.ops.remainder import NotImplementedBackward, requiring_grad
from engine.ops.scalar_overloads import mul_scalar
from engine.ops.softmax import _safe_softmax


def _mask_array(attn_mask: Any, is_causal: bool, lq: int, lk: int, dtype: Any) -> Any:
    """The additive float mask (bool masks: -inf where False), or None."""
    if is_causal:
        return np.where(np.tril(np.ones((lq, lk), bool)), 0.0, -np.inf).astype(dtype)
    if attn_mask is None:
        return None
    m = attn_mask._d
    return np.where(m, 0.0, -np.inf).astype(dtype) if m.dtype == np.bool_ else m.astype(dtype)


def _softmax_np(s: Any) -> Any:
    """Softmax over the last axis, 0 along a fully masked (all -inf) row as PyTorch's kernels
    give."""
    return _softmax_lse(s)[0]


def _softmax_lse(s: Any) -> tuple[Any, Any]:
    """The softmax over the last axis and the log-sum-exp of each row, which the CPU flash
    kernel saves (0 for a fully masked row, where the softmax is 0 too)."""
    dead = np.all(s == -np.inf, axis=-1, keepdims=True)
    top = np.where(dead, 0.0, s.max(-1, keepdims=True))
    e = np.exp(s - top)
    total = e.sum(-1, keepdims=True)
    with np.errstate(divide="ignore"):
        lse = np.where(dead, 0.0, top + np.log(total))[..., 0]
    return e / np.where(dead, 1.0, total), lse


def _check_heads(query: Tensor, key: Tensor, value: Tensor, enable_gqa: bool) -> int:
    """How many query heads share one key/value head (1 without grouped-query attention)."""
    hq, hk, hv = query.shape[-3:-2], key.shape[-3:-2], value.shape[-3:-2]
    if enable_gqa and query.ndim >= 3 and hq != hk:
        if hq[0] % hk[0] or hk != hv:
            # ATen's message ends there, mid-sentence
            raise RuntimeError(
                "Number of heads in key and value must divide the number of heads in "
            )
        groups: int = hq[0] // hk[0]
        return groups
    for i in range(min(query.ndim, key.ndim) - 2):
        a, b = query.shape[i], key.shape[i]
        if a != b and a != 1 and b != 1:
            raise RuntimeError(
                f"The size of tensor a ({a}) must match the size of tensor b ({b}) at "
                f"non-singleton dimension {i}"
            )
    return 1


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """Attention of `query` over `key`/`value` (dropout on the weights when dropout_p > 0)."""
    if _autocast.OPEN[0]:  # inside torch.autocast: PyTorch's casts first
        query, key, value, attn_mask = _autocast.lower(query, key, value, attn_mask)
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
            "is_causal=True"
        )
    sc = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    groups = _check_heads(query, key, value, enable_gqa)
    if query.ndim != 4 or dropout_p > 0.0:
        if groups > 1:
            key = key.repeat_interleave(groups, -3)
            value = value.repeat_interleave(groups, -3)
        return _math(query, key, value, attn_mask, dropout_p, is_causal, sc)
    dt = query._d.dtype
    kd, vd = np.repeat(key._d, groups, -3), np.repeat(value._d, groups, -3)
    s = np.matmul(query._d, np.swapaxes(kd, -1, -2)) * dt.type(sc)
    mask = _mask_array(attn_mask, is_causal, query.shape[-2], key.shape[-2], dt)
    if mask is not None:
        s = s + mask
    p, lse = _softmax_lse(s)
    # laid out in memory as the query is, as ATen's CPU flash kernel does (multi-head
    # attention's permute(2, 0, 1, 3) of it is then contiguous: no copy, no CloneBackward0)
    res = np.matmul(p, vd).astype(dt)
    out = np.empty_like(query._d, dtype=dt) if query._d.shape == res.shape else res
    if out is not res:
        out[...] = res
    # the row log-sum-exps in the kernel's accumulation type (float32 for half inputs)
    logsumexp = make(lse.astype(np.result_type(dt, np.float32)), False, None, 0)
    saved = {"query": query, "key": key, "value": value, "attn_mask": attn_mask,
             "dropout_p": dropout_p, "is_causal": is_causal, "scale": scale,
             "logsumexp": logsumexp}  # fmt: skip
    node = ScaledDotProductFlashAttentionForCpuBackward0
    return record(node, out, (query, key, value), saved, "output")


def _math(
    q: Tensor, k: Tensor, v: Tensor, attn_mask: Any, dropout_p: float, is_causal: bool, sc: float
) -> Tensor:
    """ATen's `_scaled_dot_product_attention_math`: the scale split over q and k."""
    root = math.sqrt(sc)
    attn = matmul(mul_scalar(q, root), mul_scalar(k.transpose(-2, -1), root))  # C++ scalar muls
    mask = _mask_array(attn_mask, is_causal, q.shape[-2], k.shape[-2], q._d.dtype)
    if mask is not None:
        attn = attn + make(mask, False, None, 0)
    attn = _safe_softmax(attn, -1)
    if dropout_p > 0.0:  # F.dropout(attn, dropout_p)
        attn = attn * dropout_noise(attn, tuple(attn.shape), dropout_p)
    return matmul(attn, v)


class ScaledDotProductFlashAttentionForCpuBackward0(OpNode):
    """The attention gradients; PyTorch defines no derivative of them (double backward fails
    with its NotImplemented node)."""

    __slots__ = ()
    _name = "ScaledDotProductFlashAttentionForCpuBackward0"
    _tensors = frozenset(("attn_mask",))
    _pack_order = ("query", "key", "value", "logsumexp")  # then the output

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        q, k, v = self.saved("query"), self.saved("key"), self.saved("value")
        scale = self.saved("scale")
        sc = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
        groups = q.shape[-3] // k.shape[-3]
        qd, gd = q._d, g._d
        kd, vd = np.repeat(k._d, groups, -3), np.repeat(v._d, groups, -3)
        s = np.matmul(qd, np.swapaxes(kd, -1, -2)) * qd.dtype.type(sc)
        mask = _mask_array(self.saved("attn_mask"), self.saved("is_causal"), qd.shape[-2],
                           kd.shape[-2], qd.dtype)  # fmt: skip
        if mask is not None:
            s = s + mask
        p = _softmax_np(s)
        dv = np.matmul(np.swapaxes(p, -1, -2), gd)
        dp = np.matmul(gd, np.swapaxes(vd, -1, -2))
        ds = p * (dp - (dp * p).sum(-1, keepdims=True))
        dq = np.matmul(ds, kd) * qd.dtype.type(sc)
        dk = np.matmul(np.swapaxes(ds, -1, -2), qd) * qd.dtype.type(sc)
        if groups > 1:  # each key/value head gathers the gradients of its query heads
            shape = (*k._d.shape[:-3], k.shape[-3], groups, *k._d.shape[-2:])
            dk, dv = dk.reshape(shape).sum(-3), dv.reshape(shape).sum(-3)
        outs = [a.astype(qd.dtype) for a in (dq, dk, dv)]
        if STATE.enabled and any(t._rg for t in (g, q, k, v)):  # create_graph=True
            op = "_scaled_dot_product_flash_attention_for_cpu_backward"
            ts = record_multi(
                NotImplementedBackward, outs, requiring_grad((g, q, k, v)), keep={"op": op}
            )
            return list(ts)
        return [make(a, False, None, 0) for a in outs]
