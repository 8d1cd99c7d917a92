"""Connectionist temporal classification loss (`_ctc_loss`, one CtcLossBackward0 node).

The forward is the log-space alpha recursion over the blank-extended target; the backward
adds the beta recursion and returns ATen's gradient, which (as PyTorch's does) treats
log_probs as log_softmax outputs: exp(lp) - exp(log(alpha * beta) + nll - lp).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine._tensor import Tensor, make
from engine.autograd.grad_mode import STATE
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, record_multi
from engine.ops.nn_ops import Array

_NEG = -np.inf


def _fn(f: Any, x: Array) -> Array:
    """exp/log in x's float type, correctly rounded (as C's expf/logf are, in practice)."""
    out: Array = f(x.astype(np.float64)).astype(x.dtype)
    return out


def _lse(*xs: Array) -> Array:
    """ATen's log(exp(a - m) + exp(b - m) + ...) + m in the arrays' float type, m = 0 when
    all are -inf (the kernels' order of operations, so float32 results match)."""
    m = np.maximum.reduce(xs)
    safe = np.where(np.isneginf(m), m.dtype.type(0), m)
    total = _fn(np.exp, xs[0] - safe)
    for x in xs[1:]:
        total = total + _fn(np.exp, x - safe)
    with np.errstate(divide="ignore"):
        out: Array = _fn(np.log, total) + safe
    return out


def _extended(target: Array, blank: int) -> tuple[Array, Array]:
    """The target with blanks around each label, and where the skip transition is allowed."""
    ext = np.full(2 * len(target) + 1, blank, np.int64)
    ext[1::2] = target
    skip = np.zeros(len(ext), bool)
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    return ext, skip


def _alpha(lp: Array, ext: Array, skip: Array, steps: int) -> Array:
    n = len(ext)
    la = np.full((max(steps, 1), n), _NEG, lp.dtype)
    la[0, 0] = lp[0, ext[0]]
    if n > 1:
        la[0, 1] = lp[0, ext[1]]
    for t in range(1, steps):
        prev = la[t - 1]
        one = np.concatenate([[_NEG], prev[:-1]]).astype(lp.dtype)
        two = np.where(skip, np.concatenate([[_NEG, _NEG], prev[:-2]]), _NEG).astype(lp.dtype)
        la[t] = _lse(prev, one, two) + lp[t, ext]
    return la


def _beta(lp: Array, ext: Array, skip: Array, steps: int) -> Array:
    n = len(ext)
    lb = np.full((max(steps, 1), n), _NEG, lp.dtype)
    lb[steps - 1, n - 1] = lp[steps - 1, ext[n - 1]]
    if n > 1:
        lb[steps - 1, n - 2] = lp[steps - 1, ext[n - 2]]
    skip_next = np.concatenate([skip[2:], [False, False]])  # may s jump to s + 2
    for t in range(steps - 2, -1, -1):
        nxt = lb[t + 1]
        one = np.concatenate([nxt[1:], [_NEG]]).astype(lp.dtype)
        two = np.where(skip_next, np.concatenate([nxt[2:], [_NEG, _NEG]]), _NEG).astype(lp.dtype)
        lb[t] = _lse(nxt, one, two) + lp[t, ext]
    return lb


def _targets_of(targets: Array, lengths: list[int]) -> list[Array]:
    """Each sample's labels, from a padded (N, S) or a concatenated 1-d targets tensor."""
    if targets.ndim == 2:
        return [targets[i, :n] for i, n in enumerate(lengths)]
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(int)
    return [targets[s : s + n] for s, n in zip(starts, lengths)]


def ctc_loss(
    lp: Tensor, targets: Tensor, in_lens: list[int], tg_lens: list[int], blank: int, zero_inf: bool
) -> Tensor:
    """Per-sample negative log-likelihoods (N,) of log_probs (T, N, C)."""
    a = lp._d  # the float type the kernel computes in
    steps = a.shape[0]
    for n in in_lens:
        if n > steps:
            raise RuntimeError(
                f"Expected input_lengths to have value at most {steps}, but got value {n} "
                "(while checking arguments for ctc_loss_cpu)"
            )
    nll = np.empty(a.shape[1], a.dtype)
    alphas = []
    for b, tgt in enumerate(_targets_of(targets._d, tg_lens)):
        ext, skip = _extended(tgt, blank)
        la = _alpha(a[:, b], ext, skip, in_lens[b])
        alphas.append(la)
        last = la[in_lens[b] - 1]
        nll[b] = -_lse(last[-1:], last[-2:-1] if len(ext) > 1 else last[-1:])[0]
    saved: dict[str, Any] = {"blank": blank, "input_lengths": in_lens, "log_probs": lp}
    saved.update({"target_lengths": tg_lens, "targets": targets, "zero_infinity": zero_inf})
    width = max((x.shape[1] for x in alphas), default=0)
    log_alpha = np.full((a.shape[1], steps, width), _NEG, a.dtype)
    for b, la in enumerate(alphas):
        log_alpha[b, : la.shape[0], : la.shape[1]] = la
    saved.update({"result0": nll, "result1": log_alpha})
    outs = [nll, log_alpha]
    res, _ = record_multi(CtcLossBackward0, outs, (lp,), saved, [True, False])
    return res


class CtcLossBackward0(OpNode):
    __slots__ = ()
    _name = "CtcLossBackward0"

    def apply(self, grads: Grads) -> Grads:
        g = grads[0]
        assert g is not None
        lpt = self.saved("log_probs")
        a = lpt._d
        blank, zero_inf = self.saved("blank"), self.saved("zero_infinity")
        in_lens, tg_lens = self.saved("input_lengths"), self.saved("target_lengths")
        la_all, nlls = self.saved("result1"), self.saved("result0")
        go = g._d.astype(a.dtype)
        grad = np.zeros_like(a)
        for b, tgt in enumerate(_targets_of(self.saved("targets")._d, tg_lens)):
            steps, lpb = in_lens[b], a[:, b]
            ext, skip = _extended(tgt, blank)
            la = la_all[b, :steps, : len(ext)]
            lb = _beta(lpb, ext, skip, steps)
            nll = nlls[b]
            if np.isinf(nll) and zero_inf:
                continue
            lcab = np.full((steps, a.shape[2]), _NEG, a.dtype)
            for s, c in enumerate(ext):
                lcab[:, c] = _lse(lcab[:, c], la[:, s] + lb[:, s])
            with np.errstate(over="ignore", invalid="ignore"):
                val = _fn(np.exp, lpb[:steps]) - _fn(np.exp, lcab + nll - lpb[:steps])
            grad[:steps, b] = val * go[b]
        out = grad
        if STATE.enabled and (g._rg or lpt._rg):  # PyTorch records it but cannot go further
            from engine.ops.remainder import not_implemented_node

            return [not_implemented_node(out, (g, lpt), "_ctc_loss_backward")]
        return [make(out, False, None, 0)]
