"""Shared benchmark helpers: single-threaded BLAS, medians, ratio tables."""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def load_torch() -> Any:
    """Real PyTorch when this interpreter has it (pinned to one thread), else None."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    return torch


def median_time(fn: Callable[[], Any], repeat: int = 7, min_time: float = 0.05) -> float:
    """Median seconds per call over `repeat` rounds of enough calls to last `min_time`."""
    fn()
    n = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t0
        if dt >= min_time:
            break
        n *= 2
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t0) / n)
    return statistics.median(samples)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.2f} us"
    return f"{seconds * 1e3:8.2f} ms"


def report(rows: list[tuple[str, dict[str, float]]], ratios: list[tuple[str, str, float]]) -> None:
    """Print medians per case, then `ours / reference` ratios with their targets."""
    for name, times in rows:
        cells = "  ".join(f"{k}={fmt(v)}" for k, v in times.items())
        print(f"{name:40s} {cells}")
    print()
    by_name = dict(rows)
    for name, ref, target in ratios:
        times = by_name.get(name, {})
        if "engine" in times and ref in times:
            r = times["engine"] / times[ref]
            verdict = "ok" if r <= target else "MISSED"
            print(f"{name:40s} engine/{ref:<8s} = {r:6.2f}x  (target <= {target}x) {verdict}")
