"""Engine speed vs PyTorch and a hand-written NumPy tape (issue #2's benchmark).

Run with an interpreter that has torch for the PyTorch column, e.g.
`PYTHONPATH=. /path/to/torch-venv/bin/python bench/bench_engine.py`.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from _common import load_torch, median_time, report

import engine

torch = load_torch()


def per_op_cases() -> list[tuple[str, dict[str, float]]]:
    rows = []
    for shape in ((4,), (16, 16)):
        a_np = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
        b_np = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
        libs: dict[str, Any] = {"engine": engine}
        if torch is not None:
            libs["torch"] = torch
        ops = {
            "mul": lambda a, b: a * b,
            "add": lambda a, b: a + b,
            "exp": lambda a, b: a.exp(),
            "relu": lambda a, b: a.relu(),
            "sum": lambda a, b: a.sum(),
        }
        for op, fn in ops.items():
            times = {}
            for name, lib in libs.items():
                a = lib.tensor(a_np, requires_grad=True)
                b = lib.tensor(b_np, requires_grad=True)
                times[name] = median_time(lambda fn=fn, a=a, b=b: fn(a, b))
            rows.append((f"forward+grad {op} {shape}", times))
    return rows


def chain(lib: Any, x0: np.ndarray) -> Any:
    x = lib.tensor(x0, requires_grad=True)

    def run() -> None:
        y = x
        for _ in range(25):
            y = y * 1.01
            y = y + 0.5
            y = y.tanh()
            y = y - 0.1
        y.sum().backward()
        x.grad = None

    return run


def numpy_chain(x0: np.ndarray) -> Any:
    """The same 100 ops as a hand-written NumPy tape (forward, then reversed closures)."""

    def run() -> None:
        tape = []
        y = x0
        for _ in range(25):
            y = y * 1.01
            tape.append(("mul", None))
            y = y + 0.5
            tape.append(("add", None))
            y = np.tanh(y)
            tape.append(("tanh", y))
            y = y - 0.1
            tape.append(("sub", None))
        g = np.ones_like(y)
        for kind, saved in reversed(tape):
            if kind == "mul":
                g = g * 1.01
            elif kind == "tanh":
                g = g * (1 - saved * saved)
        return None

    return run


def mlp(lib: Any, sizes: tuple[int, ...], batch: int) -> Any:
    rng = np.random.default_rng(0)
    ws = [
        lib.tensor(rng.standard_normal((i, o)).astype(np.float32) * 0.05, requires_grad=True)
        for i, o in itertools.pairwise(sizes)
    ]
    bs = [lib.tensor(np.zeros(o, np.float32), requires_grad=True) for o in sizes[1:]]
    x = lib.tensor(rng.standard_normal((batch, sizes[0])).astype(np.float32))
    y = lib.tensor(rng.standard_normal((batch, sizes[-1])).astype(np.float32))

    def step() -> None:
        h = x
        for i, (w, b) in enumerate(zip(ws, bs)):
            h = h @ w + b
            if i < len(ws) - 1:
                h = h.relu()
        loss = ((h - y) ** 2).mean()
        loss.backward()
        with lib.no_grad():
            for p in ws + bs:
                p -= 0.01 * p.grad
                p.grad = None

    return step


def numpy_mlp(sizes: tuple[int, ...], batch: int) -> Any:
    rng = np.random.default_rng(0)
    ws = [
        rng.standard_normal((i, o)).astype(np.float32) * 0.05 for i, o in itertools.pairwise(sizes)
    ]
    bs = [np.zeros(o, np.float32) for o in sizes[1:]]
    x = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y = rng.standard_normal((batch, sizes[-1])).astype(np.float32)

    def step() -> None:
        acts = [x]
        h = x
        for i, (w, b) in enumerate(zip(ws, bs)):
            h = h @ w + b
            if i < len(ws) - 1:
                h = np.maximum(h, 0)
            acts.append(h)
        g = 2 * (h - y) / h.size
        for i in reversed(range(len(ws))):
            if i < len(ws) - 1:
                g = g * (acts[i + 1] > 0)
            gw = acts[i].T @ g
            gb = g.sum(0)
            if i > 0:  # the input needs no gradient, as in the autograd versions
                g = g @ ws[i].T
            ws[i] -= 0.01 * gw
            bs[i] -= 0.01 * gb

    return step


def resnet18_step(lib: Any, resnet18: Any) -> Any:
    """torchvision's resnet18, forward and backward of one 224x224 image (the profiler note)."""
    lib.manual_seed(0)
    model = resnet18()
    x = lib.randn(1, 3, 224, 224, requires_grad=True)

    def step() -> None:
        model(x).sum().backward()

    return step


def resnet18_row() -> tuple[str, dict[str, float]]:
    from engine.vision.models import resnet18  # direct: `torch` here stays real PyTorch

    times = {"engine": median_time(resnet18_step(engine, resnet18), repeat=5, min_time=0)}
    if torch is not None:
        from tests.fixtures.torchvision_cpu import load

        load()
        import torchvision

        step = resnet18_step(torch, torchvision.models.resnet18)
        times["torch"] = median_time(step, repeat=5, min_time=0)
    return "resnet18 forward+backward B1 224x224", times


def main() -> None:
    rows = per_op_cases()
    x0 = np.random.default_rng(2).standard_normal(16).astype(np.float32)
    times = {"engine": median_time(chain(engine, x0)), "numpy": median_time(numpy_chain(x0))}
    if torch is not None:
        times["torch"] = median_time(chain(torch, x0))
    rows.append(("100-op chain forward+backward", times))
    for sizes, batch in (((784, 256, 10), 64), ((1024, 1024, 1024, 10), 256)):
        name = f"MLP step B{batch} {'-'.join(map(str, sizes))}"
        times = {
            "engine": median_time(mlp(engine, sizes, batch), repeat=5),
            "numpy": median_time(numpy_mlp(sizes, batch), repeat=5),
        }
        if torch is not None:
            times["torch"] = median_time(mlp(torch, sizes, batch), repeat=5)
        rows.append((name, times))
    rows.append(resnet18_row())
    ratios = [(name, "torch", 0.8) for name, _ in rows if name.startswith("forward+grad")]
    ratios.append(("resnet18 forward+backward B1 224x224", "torch", 2.0))
    ratios += [
        ("100-op chain forward+backward", "torch", 0.6),
        ("100-op chain forward+backward", "numpy", 2.5),
        ("MLP step B64 784-256-10", "numpy", 1.1),
        ("MLP step B256 1024-1024-1024-10", "numpy", 1.1),
    ]
    report(rows, ratios)


if __name__ == "__main__":
    main()
