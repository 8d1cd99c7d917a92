"""What watching costs real torch: a small MLP's training steps, plain and under backscope's
capture (events built and serialized as the trace command writes them), and stepping through
every node with an answering controller. Ratios within one run; run it in the torch venv:
`.venv-torch/bin/python bench/bench_torch_capture.py`."""

from __future__ import annotations

import os
import time

import orjson
import torch

from backscope.capture import Capture
from protocol.stepping import AutoStep

STEPS = 20


def _model() -> tuple[torch.nn.Module, torch.Tensor, torch.Tensor]:
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    return net, torch.randn(32, 64), torch.randint(0, 10, (32,))


def _train(net: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> None:
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    for _ in range(STEPS):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()


def _time(watch: bool, controller: object = None) -> tuple[float, int]:
    net, x, y = _model()
    count = 0

    def sink(batch: list[dict[str, object]]) -> None:
        nonlocal count
        count += len(batch)
        b"\n".join(orjson.dumps(e) for e in batch)

    start = time.perf_counter()
    if watch:
        opts = {"pause_in_backward": controller is not None}
        with Capture(sink, {__file__}, controller, opts, streams=None) as cap:
            _train(net, x, y)
        cap.rec.flush()
    else:
        _train(net, x, y)
    return time.perf_counter() - start, count


def main() -> None:
    torch.set_num_threads(1)
    _time(False)  # warm up
    plain = min(_time(False)[0] for _ in range(3))
    watched, events = min(_time(True) for _ in range(3))
    stepped, _ = min(_time(True, AutoStep()) for _ in range(3))
    print(f"load {os.getloadavg()[0]:.1f} · {STEPS} steps of a 64-128-10 MLP, batch 32")
    print(f"plain    {plain * 1e3:8.1f} ms")
    print(f"watched  {watched * 1e3:8.1f} ms  ×{watched / plain:.1f}  ({events} events)")
    print(f"stepped  {stepped * 1e3:8.1f} ms  ×{stepped / plain:.1f}  (every node paused)")


if __name__ == "__main__":
    main()
