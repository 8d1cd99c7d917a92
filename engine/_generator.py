"""`torch.Generator`: PyTorch's CPU random stream, bit for bit.

PyTorch's CPU generator is an mt19937 seeded like `std::mt19937(seed & 0xffffffff)`; each
distribution turns its 32/64-bit draws into numbers in a fixed way (copied below from ATen's
`TransformationHelper.h`, `DistributionTemplates.h` and `DistributionKernels.cpp`), so
`torch.manual_seed(0); torch.randn(3)` gives PyTorch's numbers.

>>> g = torch.Generator().manual_seed(42); g.initial_seed()
42
"""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np

from engine import _dtype
from engine._device import device as _device
from engine.autograd.grad_mode import STATE

_U64 = np.uint64
Array = np.ndarray[Any, Any]
_DEFAULT_SEED = 67280421310721  # PyTorch's default initial seed
_STATE_BYTES = 5056  # the size of PyTorch's CPU generator state tensor
_CHUNK = 1 << 16  # elements drawn and transformed at a time (a multiple of 16)


class Generator:
    """A random number generator object, as passed to `random_split(..., generator=g)`."""

    def __init__(self, device: Any = "cpu") -> None:
        self.device = _device(device) if isinstance(device, str) else device
        self.manual_seed(_DEFAULT_SEED)

    def manual_seed(self, seed: int) -> Generator:
        """Reseed and return self (so `torch.Generator().manual_seed(0)` chains)."""
        self._seed = int(seed) % 2**64
        self._mt = np.random.MT19937()
        self._mt._legacy_seeding(self._seed & 0xFFFFFFFF)  # mt19937's init_genrand, as ATen
        self._next_normal: float | None = None  # the cached second Box-Muller sample
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Reseed from fresh entropy and return the new seed."""
        new = int(np.random.SeedSequence().generate_state(1, np.uint64)[0]) % (2**63)
        self.manual_seed(new)
        return new

    def get_state(self) -> Any:
        """The state as a uint8 tensor of PyTorch's size (the byte layout is the engine's)."""
        from engine._tensor import make

        st = self._mt.state["state"]
        head = np.array([self._seed, st["pos"], self._next_normal is not None], np.uint64)
        normal = np.array([self._next_normal or 0.0], np.float64)
        raw = b"".join([head.tobytes(), st["key"].astype(np.uint64).tobytes(), normal.tobytes()])
        data = np.zeros(_STATE_BYTES, np.uint8)
        data[: len(raw)] = np.frombuffer(raw, np.uint8)
        return make(data, False, None, 0)

    def set_state(self, new_state: Any) -> Generator:
        raw = new_state._d.tobytes()
        seed, pos, has_normal = (int(v) for v in np.frombuffer(raw[:24], np.uint64))
        key = np.frombuffer(raw[24 : 24 + 624 * 8], np.uint64).astype(np.uint32)
        normal = float(np.frombuffer(raw[24 + 624 * 8 : 32 + 624 * 8], np.float64)[0])
        self._seed = seed
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        self._next_normal = normal if has_normal else None
        return self

    # -- raw draws ------------------------------------------------------------------------------

    def _u32(self, n: int) -> np.ndarray[Any, Any]:
        """`generator->random()`, n times (as uint64). Every draw comes through here, so this
        is where vmap's default randomness="error" refuses one."""
        if STATE.vmap_level and STATE.vmap_randomness == "error":
            raise RuntimeError(
                "vmap: called random operation while in randomness error mode. Please either use "
                "the 'same' or 'different' randomness flags on vmap or perform the randomness "
                "operation out of vmap"
            )
        out: np.ndarray[Any, Any] = self._mt.random_raw(n)
        return out

    def _u64(self, n: int) -> np.ndarray[Any, Any]:
        """`generator->random64()`: two 32-bit draws, the first one high."""
        r = self._u32(2 * n).reshape(n, 2)
        return np.asarray((r[:, 0] << _U64(32)) | r[:, 1])

    def _unit(self, n: int, dt: Any) -> np.ndarray[Any, Any]:
        """Uniform [0, 1) in double: 24 random bits for float32 (and smaller), 53 for double."""
        if np.dtype(dt) == np.float64:
            r, bits = self._u64(n), 53
        else:
            r, bits = self._u32(n), 24
        r &= _U64((1 << bits) - 1)
        out = r.astype(np.float64)
        out *= 2.0**-bits
        return out

    # -- distributions ---------------------------------------------------------------------------

    def uniform(self, n: int, dt: Any, a: float = 0.0, b: float = 1.0) -> np.ndarray[Any, Any]:
        """`uniform_(a, b)`: the bounds are cast to the tensor's dtype first, as ATen does."""
        lo, hi = np.asarray(a, dt), np.asarray(b, dt)
        span = (hi - lo).astype(np.float64)
        out = np.empty(n, dt)
        for s in range(0, n, _CHUNK):  # (a chunk at a time: 10x faster for 100M elements)
            u = self._unit(min(_CHUNK, n - s), dt)
            u *= span
            u += lo
            out[s : s + len(u)] = u
        return out

    def normal(
        self, n: int, dt: Any, mean: float = 0.0, std: float = 1.0, contiguous: bool = True
    ) -> np.ndarray[Any, Any]:
        """`normal_`: Box-Muller over blocks of 16 for 16+ contiguous elements, else one by one."""
        if n >= 16 and contiguous:
            return self._normal_fill(n, np.dtype(dt), mean, std)
        out = np.empty(n, np.float64)
        for i in range(n):
            out[i] = self._normal_double() * std + mean
        return out.astype(dt)

    def _normal_double(self) -> float:
        """`at::normal_distribution<double>`: the sine half is kept for the next call."""
        if self._next_normal is not None:
            v, self._next_normal = self._next_normal, None
            return v
        u1, u2 = self._unit(2, np.float64)
        r = np.sqrt(-2.0 * np.log1p(-u2))
        theta = 2.0 * np.pi * u1
        self._next_normal = float(r * np.sin(theta))
        return float(r * np.cos(theta))

    def _normal_fill(
        self, n: int, dt: np.dtype[Any], mean: float, std: float
    ) -> np.ndarray[Any, Any]:
        """ATen's `normal_fill`: uniforms, Box-Muller per 16, a ragged tail redraws the last 16."""
        wt = np.float64 if dt == np.float64 else np.float32
        data = self.uniform(n, wt)
        full = n // 16 * 16
        for s in range(0, full, _CHUNK):  # whole blocks of 16 (they do not overlap), by chunk
            _fill16(data[s : min(s + _CHUNK, full)].reshape(-1, 16).T, 0, wt, mean, std)
        if n % 16:
            data[n - 16 :] = self.uniform(16, wt)
            _fill16(data, n - 16, wt, mean, std)
        return data.astype(dt)

    def randint(self, n: int, low: int, high: int) -> np.ndarray[Any, Any]:
        """`random_(low, high)`: a draw modulo the range (64-bit draws for ranges >= 2**32)."""
        span = high - low
        if span <= 0:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        raw = self._u64(n) if span >= 2**32 else self._u32(n)
        return ((raw % _U64(span)).astype(np.int64) + low).astype(np.int64)

    def random_full(self, n: int, dt: Any) -> np.ndarray[Any, Any]:
        """`random_()` with no bounds: [0, 2**mantissa] for floats, [0, max] for ints."""
        d = np.dtype(dt)
        if d == np.bool_:
            return (self._u32(n) & _U64(1)).astype(d)
        if _dtype.kind(d) == "f":
            bits = np.finfo(d).nmant + 1
            raw = self._u64(n) if d == np.float64 else self._u32(n)
            return (raw % _U64((1 << bits) + 1)).astype(d)
        raw = self._u64(n) if d == np.int64 else self._u32(n)
        return (raw % _U64(int(np.iinfo(d).max) + 1)).astype(d)

    def randperm(self, n: int) -> np.ndarray[Any, Any]:
        """ATen's randperm for small n: a Fisher-Yates walk from the front."""
        out = np.arange(n, dtype=np.int64)
        draws = self._u32(max(n - 1, 0))
        for i in range(n - 1):
            z = i + int(draws[i] % _U64(n - i))
            out[i], out[z] = out[z], out[i]
        return out

    def bernoulli_scalar(self, n: int, p: float) -> np.ndarray[Any, Any]:
        """`bernoulli_(p)` with a float p: a double uniform below p."""
        return self._unit(n, np.float64) < p

    def bernoulli_tensor(self, p: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """`torch.bernoulli(p)`: one float uniform per element, below its p."""
        return self._unit(p.size, np.float32).reshape(p.shape) < p

    def exponential(self, n: int, lambd: float) -> np.ndarray[Any, Any]:
        """`exponential_`: -log1p(-u) / lambda on a double uniform."""
        out: np.ndarray[Any, Any] = -1.0 / lambd * np.log1p(-self._unit(n, np.float64))
        return out

    def cauchy(self, n: int, median: float, sigma: float) -> np.ndarray[Any, Any]:
        """`cauchy_`: median + sigma * tan(pi * (u - 0.5)) on a double uniform."""
        out: np.ndarray[Any, Any] = median + sigma * np.tan(
            np.pi * (self._unit(n, np.float64) - 0.5)
        )
        return out

    def geometric(self, n: int, p: float) -> np.ndarray[Any, Any]:
        """`geometric_`: ceil(log(u) / log1p(-p)) on a double uniform."""
        out: np.ndarray[Any, Any] = np.ceil(np.log(self._unit(n, np.float64)) / np.log1p(-p))
        return out

    def poisson(self, rates: Array) -> Array:
        """`torch.poisson`: ATen's `sample_poisson` on each rate in turn (double uniforms):
        Hoermann's transformed rejection from a rate of 10 up, multiplied uniforms below."""
        out = np.empty(rates.size, np.float64)
        for i, lam in enumerate(rates.reshape(-1).astype(np.float64).tolist()):
            if not lam >= 0:
                raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
            out[i] = self._poisson_one(lam)
        return out.reshape(rates.shape)

    def _poisson_one(self, lam: float) -> float:
        unit = self._unit
        if lam >= 10:
            slam, loglam = math.sqrt(lam), math.log(lam)
            b = 0.931 + 2.53 * slam
            a = -0.059 + 0.02483 * b
            invalpha = 1.1239 + 1.1328 / (b - 3.4)
            vr = 0.9277 - 3.6224 / (b - 2)
            while True:
                u = float(unit(1, np.float64)[0]) - 0.5
                v = float(unit(1, np.float64)[0])
                us = 0.5 - abs(u)
                kf = (2 * a / us + b) * u + lam + 0.43
                if not math.isfinite(kf):
                    return float(-(2**63))  # C++'s (int64_t) of an infinity or NaN on x86
                k = math.floor(kf)
                if us >= 0.07 and v <= vr:
                    return float(k)
                if k < 0 or (us < 0.013 and v > us):
                    continue
                lhs = math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)
                if lhs <= -lam + k * loglam - math.lgamma(k + 1.0):
                    return float(k)
        if lam == 0:
            return 0.0
        enlam, x, prod = math.exp(-lam), 0, 1.0
        while True:
            prod *= float(unit(1, np.float64)[0])
            if prod > enlam:
                x += 1
            else:
                return float(x)


def _fill16(data: Any, s: int, wt: Any, mean: float, std: float) -> None:
    u1 = wt(1) - data[s : s + 8]
    u2 = data[s + 8 : s + 16]
    radius = np.sqrt(wt(-2) * np.log(u1))
    theta = wt(2.0 * np.pi) * u2
    data[s : s + 8] = radius * np.cos(theta) * wt(std) + wt(mean)
    data[s + 8 : s + 16] = radius * np.sin(theta) * wt(std) + wt(mean)


def in_memory_order(target: Array, data: Array) -> Array:
    """`data`, drawn in sequence, laid out as ATen writes it into `target` (memory order)."""
    if target.flags.c_contiguous or data.size <= 1:
        return data.reshape(target.shape)
    offsets = sum(i * st for i, st in zip(np.indices(target.shape), target.strides))
    logical = np.empty_like(data)
    logical[np.argsort(np.asarray(offsets).ravel(), kind="stable")] = data
    return logical.reshape(target.shape)


class _Simulated(threading.local):
    """The generator of the simulated process (a `torch.multiprocessing.spawn` rank thread)
    running in this thread; None in the process's own threads."""

    def __init__(self) -> None:
        self.gen: Generator | None = None


def _per_process(name: str) -> property:
    def get(self: DefaultGenerator) -> Any:
        own = self._simulated.gen
        return (own if own is not None else self).__dict__[name]

    def set_(self: DefaultGenerator, value: Any) -> None:
        own = self._simulated.gen
        (own if own is not None else self).__dict__[name] = value

    return property(get, set_)


class DefaultGenerator(Generator):
    """`torch.default_generator`: one per process. The rank threads that stand in for
    processes (torch.multiprocessing.spawn) each get their own, seeded as a new process's."""

    _simulated = _Simulated()
    _seed = _per_process("_seed")
    _mt = _per_process("_mt")
    _next_normal = _per_process("_next_normal")

    def start_process(self) -> None:
        """Give the calling thread a fresh generator, as a newly started process has."""
        self._simulated.gen = Generator(self.device)


# printed as PyTorch's: `type(torch.default_generator)` is <class 'torch._C.Generator'>
DefaultGenerator.__name__ = DefaultGenerator.__qualname__ = "Generator"
DefaultGenerator.__module__ = "torch._C"
default_generator = DefaultGenerator()


def pick(generator: Generator | None) -> Generator:
    """The generator a call should draw from: the one passed, else the default."""
    return default_generator if generator is None else generator
