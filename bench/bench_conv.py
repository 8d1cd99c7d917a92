"""A conv net training step on the engine vs PyTorch, BLAS on one thread.

Batch 32 of 1x28x28 -> (conv3x3-bn-relu-maxpool) x 2 -> linear -> cross-entropy, SGD step.
Run from the repo root: `.venv/bin/python bench/bench_conv.py` (the PyTorch half runs in
$TORCH_PYTHON, default /work/torchenv/bin/python, when this interpreter has no torch).
Add `--profile` to print where the engine's time goes.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
from _common import load_torch, median_time, report

HERE = Path(__file__).resolve().parent


def make_step(torch: Any) -> Any:
    """A closure running one training step of the benchmark net with `torch`."""
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1),
        nn.BatchNorm2d(8),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1),
        nn.BatchNorm2d(16),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(16 * 7 * 7, 10),
    )
    rng = np.random.default_rng(0)
    x = torch.tensor(rng.standard_normal((32, 1, 28, 28)).astype(np.float32))
    y = torch.tensor(rng.integers(0, 10, 32))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = nn.CrossEntropyLoss()

    def step() -> None:
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return step


def torch_time() -> float | None:
    """PyTorch's median step time, measured here or in a PyTorch interpreter."""
    torch = load_torch()
    if torch is not None:
        return median_time(make_step(torch))
    exe = os.environ.get("TORCH_PYTHON", "/work/torchenv/bin/python")
    if not Path(exe).exists():
        return None
    out = subprocess.run(
        [exe, str(Path(__file__).resolve()), "--torch-only"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
    )
    return float(json.loads(out.stdout.strip().splitlines()[-1])["torch"])


def main(argv: list[str]) -> None:
    if "--torch-only" in argv:
        torch = load_torch()
        assert torch is not None, "--torch-only needs an interpreter with torch"
        print(json.dumps({"torch": median_time(make_step(torch))}))
        return
    sys.path.insert(0, str(HERE.parent))
    import engine

    step = make_step(engine)
    if "--profile" in argv:
        import cProfile
        import pstats

        step()
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(10):
            step()
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
    # the machine is shared: alternate the two sides and keep the median of each
    eng: list[float] = []
    ref: list[float] = []
    for _ in range(3):
        eng.append(median_time(step))
        t = torch_time()
        if t is not None:
            ref.append(t)
    times = {"engine": statistics.median(eng)}
    if ref:
        times["torch"] = statistics.median(ref)
    name = "conv net train step (batch 32)"
    report([(name, times)], [(name, "torch", 2.0)])


if __name__ == "__main__":
    main(sys.argv[1:])
