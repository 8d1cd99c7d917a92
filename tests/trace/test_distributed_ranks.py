"""A torch.distributed snippet (ranks as threads of the run): each rank's graph is labelled
with its rank, so the page can draw them apart; nodes of the main thread carry none."""

from __future__ import annotations

from collections import Counter

from protocol.check import validate_event
from tests.trace import harness

SNIPPET = """
import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def worker(rank, world):
    dist.init_process_group("gloo", rank=rank, world_size=world)
    x = torch.randn(3, 2, 4, requires_grad=True)
    h = x
    for _ in range(rank + 1):  # rank r makes r + 1 ExpBackward0 nodes
        h = h.exp()
    y = torch.nn.SyncBatchNorm(2)(h).sum()
    y.backward()
    dist.destroy_process_group()


a = torch.ones(2, requires_grad=True)
(a * 3).sum().backward()
mp.spawn(worker, args=(3,), nprocs=3)
"""


def test_each_ranks_nodes_carry_its_rank() -> None:
    summary, events = harness.traced(SNIPPET)
    assert summary["status"] == "ok", summary
    for e in events:
        validate_event(e)
    nodes = [e for e in events if e["type"] == "node"]
    exps = Counter(e.get("rank") for e in nodes if e["name"] == "ExpBackward0")
    assert exps == {0: 1, 1: 2, 2: 3}
    bns = Counter(e.get("rank") for e in nodes if e["name"] == "SyncBatchNormBackward")
    assert bns == {0: 1, 1: 1, 2: 1}
    main = [e["name"] for e in nodes if "rank" not in e]
    assert sorted(main) == ["MulBackward0", "SumBackward0", "torch::autograd::AccumulateGrad"]
    # a rank's leaves (x, the module's weight and bias) are labelled with it
    leaves = Counter(e.get("rank") for e in nodes if e["name"].endswith("AccumulateGrad"))
    assert leaves == {None: 1, 0: 3, 1: 3, 2: 3}
