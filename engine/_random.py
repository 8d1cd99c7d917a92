"""Random tensors: `rand`, `randn`, `randint`, `randperm`, `normal`,
`multinomial`, and the default generator's seed and state (PyTorch's streams, see
engine/_generator.py).

>>> torch.manual_seed(0); torch.rand(2)
tensor([0.4963, 0.7682])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine import _dtype
from engine._creation import NO_SIZE, _like, _size, into, out_dtype, sized
from engine._from_data import _finish, _np_dtype
from engine._generator import Generator, default_generator, pick
from engine._tensor import Tensor, make
from engine.autograd.graph import Grads
from engine.ops._core import OpNode, variant
from engine.ops.table import Op


def manual_seed(seed: int) -> Generator:
    """Seed the default generator; the numbers drawn after it are PyTorch's."""
    return default_generator.manual_seed(seed)


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    return default_generator.get_state()  # type: ignore[no-any-return]


def set_rng_state(new_state: Tensor) -> None:
    default_generator.set_state(new_state)


def rand_like(
    t: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return rand(t.shape, dtype=_like(t, dtype), requires_grad=requires_grad)


def randn_like(
    t: Tensor, *, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    return randn(t.shape, dtype=_like(t, dtype), requires_grad=requires_grad)


def rand(
    *sizes: Any,
    size: Any = NO_SIZE,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Any = None,
    out: Any = None,
) -> Tensor:
    size = sized("rand", sizes, size)
    if out is not None:  # drawn in out's dtype, as ATen fills out in place
        t = rand(
            *size, dtype=out_dtype(dtype, out), requires_grad=requires_grad, generator=generator
        )
        return into(out, t)
    shape, dt = _size(size), _np_dtype(dtype)
    if _dtype.kind(dt) not in "fc":
        raise _no_kernel("check_uniform_bounds", dt)
    if _dtype.kind(dt) == "c":  # ATen fills view_as_real(self): re and im each uniform in [0, 1)
        pairs = pick(generator).uniform(2 * int(np.prod(shape)), dt.type(0).real.dtype)
        return _finish(pairs.view(dt).reshape(shape), requires_grad, device)
    data = pick(generator).uniform(int(np.prod(shape)), dt).reshape(shape)
    return _finish(data, requires_grad, device)


def randn(
    *sizes: Any,
    size: Any = NO_SIZE,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Any = None,
    out: Any = None,
) -> Tensor:
    size = sized("randn", sizes, size)
    if out is not None:  # drawn in out's dtype, as ATen fills out in place
        t = randn(
            *size, dtype=out_dtype(dtype, out), requires_grad=requires_grad, generator=generator
        )
        return into(out, t)
    shape, dt = _size(size), _np_dtype(dtype)
    if _dtype.kind(dt) not in "fc":
        raise _no_kernel("normal_kernel_cpu", dt)
    if _dtype.kind(dt) == "c":  # ATen: normal_(view_as_real(self), 0, 1/sqrt(2)), variance 1/2 each
        rt, n = dt.type(0).real.dtype, 2 * int(np.prod(shape))
        pairs = pick(generator).normal(n, rt, 0.0, float(1 / np.sqrt(2)))
        return _finish(pairs.view(dt).reshape(shape), requires_grad, device)
    data = pick(generator).normal(int(np.prod(shape)), dt).reshape(shape)
    return _finish(data, requires_grad, device)


def _no_kernel(kernel: str, dt: Any) -> NotImplementedError:
    from engine.ops.inplace import type_name

    return NotImplementedError(
        f"\"{kernel}\" not implemented for '{type_name(_dtype.from_numpy(dt))}'"
    )


def randint(
    low: int = 0,
    high: Any = None,
    size: Any = None,
    *,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    generator: Any = None,
) -> Tensor:
    if size is None:  # randint(high, size)
        low, high, size = 0, low, high
    elif high is None:  # randint(high, size=...)
        low, high = 0, low
    shape = tuple(size)
    data = pick(generator).randint(int(np.prod(shape)), int(low), int(high)).reshape(shape)
    return _finish(data.astype(_np_dtype(dtype, _dtype.int64)), requires_grad, device)


def randperm(
    n: int,
    *,
    generator: Any = None,
    dtype: Any = None,
    device: Any = None,
    requires_grad: bool = False,
) -> Tensor:
    perm = pick(generator).randperm(int(n))
    return _finish(perm.astype(_np_dtype(dtype, _dtype.int64)), requires_grad, device)


def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Any = None) -> Tensor:
    g = pick(generator)
    tensors = [t for t in (mean, std) if isinstance(t, Tensor)]
    if not tensors:  # normal(mean, std, size): one normal_(mean, std) fill
        shape = tuple(size)
        dt = _dtype.get_default_dtype().np
        return _finish(g.normal(int(np.prod(shape)), dt, mean, std).reshape(shape), False)
    m = mean._d if isinstance(mean, Tensor) else mean
    s = std._d if isinstance(std, Tensor) else std
    if isinstance(std, Tensor) and bool(np.any(s < 0)):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if not isinstance(std, Tensor) and not float(std) >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {float(std):g}")
    try:
        shape = np.broadcast(m, s).shape
    except ValueError:
        from engine.ops.broadcasting import broadcast_error

        raise broadcast_error(m, s) from None
    dt = np.result_type(*[t._d.dtype for t in tensors])
    n = int(np.prod(shape))
    if not isinstance(std, Tensor):  # ATen: normal_(0, std), then add_(mean)
        z = g.normal(n, dt, 0.0, float(std)).reshape(shape)
        out = (z + np.asarray(m, dt)).astype(dt)
    else:  # a tensor std: standard normals, then `mul_(std).add_(mean)`
        z = g.normal(n, dt).reshape(shape)
        out = (z * np.asarray(s, dt) + np.asarray(m, dt)).astype(dt)
    # a sample's gradient is zero in mean and std (NormalBackward1: tensor mean, 2: tensor
    # std, 3: both), so the graph still reaches them
    from engine.ops.record import record

    node = _NORMAL_NODES[isinstance(mean, Tensor) + 2 * isinstance(std, Tensor)]
    saved = {f"{k}_sym_sizes": t._d.shape for k, t in (("mean", mean), ("std", std))
             if isinstance(t, Tensor)}  # fmt: skip
    return record(node, out, tuple(tensors), saved, shapes=tuple(t._d.shape for t in tensors))


class _SampledNormal(OpNode):
    """A normal sample's node: zeros for each tensor it was drawn with."""

    __slots__ = ()

    def apply(self, grads: Grads) -> Grads:
        g, shapes = grads[0], self._shapes
        assert g is not None and shapes is not None
        return [make(np.zeros(shape, g._d.dtype), False, None, 0) for shape in shapes]


_NORMAL_NODES = {k: variant(_SampledNormal, f"NormalBackward{k}") for k in (1, 2, 3)}


def multinomial(
    p: Tensor, num_samples: int, replacement: bool = False, *, generator: Any = None
) -> Tensor:
    """ATen's two paths: exponential races (argmax/topk of p/q) without replacement or for one
    sample, else a binary search of double uniforms in the normalised cumulative sum."""
    g = pick(generator)
    rows = p._d.reshape(-1, p._d.shape[-1]).astype(np.float64)
    if not replacement or num_samples == 1:
        q = g.exponential(rows.size, 1.0).astype(p._d.dtype).reshape(rows.shape)
        keys = (rows / q).astype(p._d.dtype)
        out = np.argsort(-keys, axis=-1, kind="stable")[:, :num_samples]
    else:
        cum = np.cumsum(rows, -1)
        cum = (cum / cum[:, -1:]).astype(p._d.dtype)
        cum[:, -1] = 1
        out = np.stack(
            [np.searchsorted(c, g._unit(num_samples, np.float64), side="left") for c in cum]
        )
    return make(out.reshape((*p._d.shape[:-1], num_samples)).astype(np.int64), False, None, 0)


OPS = [
    Op("multinomial", multinomial, function=False),
]
