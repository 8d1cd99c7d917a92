"""torch.distributed with the engine's local backend: ranks as threads of one run.

SyncBatchNorm is compared with values recorded from PyTorch (tests/fixtures/distributed.json,
by tests/fixtures/record_distributed.py) for the same per-rank inputs.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import engine as torch
from engine import distributed as dist
from engine import multiprocessing as mp

FIXTURE = json.loads((Path(__file__).parents[1] / "fixtures" / "distributed.json").read_text())
SHAPE = (3, 2, 4, 4)


def run_ranks(world: int, fn: Callable[[int], Any]) -> dict[int, Any]:
    """`fn(rank)` on `world` rank threads inside one process group; their results by rank."""
    results: dict[int, Any] = {}

    def worker(rank: int, key: str) -> None:
        dist.init_process_group("gloo", init_method=key, rank=rank, world_size=world)
        try:
            results[rank] = fn(rank)
        finally:
            dist.destroy_process_group()

    mp.spawn(worker, args=(f"test://{id(results)}",), nprocs=world)
    return results


@pytest.mark.parametrize("world", [2, 4])
def test_sync_batch_norm_matches_pytorch(world: int) -> None:
    def step(rank: int) -> dict[str, Any]:
        torch.manual_seed(rank)  # each rank thread has its own generator, as a process would
        x = torch.randn(*SHAPE).requires_grad_()
        bn = torch.nn.SyncBatchNorm(2)
        y = bn(x)
        dy = torch.arange(1.0, 5.0).reshape(1, 1, 1, 4).expand(*SHAPE) * (rank + 1)
        (y * dy).sum().backward()
        out = {
            "name": y.grad_fn.name(),
            "y": y.tolist(),
            "x_grad": x.grad.tolist(),
            "weight_grad": bn.weight.grad.tolist(),
            "bias_grad": bn.bias.grad.tolist(),
            "running_mean": bn.running_mean.tolist(),
            "running_var": bn.running_var.tolist(),
        }
        bn.eval()
        out["eval"] = bn(x).tolist()  # running statistics: no collective in eval mode
        return out

    got = run_ranks(world, step)
    want = FIXTURE[str(world)]
    for rank in range(world):
        g, w = got[rank], want["ranks"][rank]
        assert g["name"] == "SyncBatchNormBackward"
        for key in ("y", "x_grad", "weight_grad", "bias_grad"):
            np.testing.assert_allclose(g[key], w[key], rtol=1e-4, atol=1e-5, err_msg=key)
        np.testing.assert_allclose(g["running_mean"], want["running_mean"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(g["running_var"], want["running_var"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[0]["eval"], want["eval_rank0"], rtol=1e-4, atol=1e-5)


def test_collectives_and_ranks_per_thread() -> None:
    def collectives(rank: int) -> dict[str, Any]:
        t = torch.tensor([float(rank), 1.0])
        dist.all_reduce(t)
        m = torch.tensor([float(rank)])
        dist.all_reduce(m, op=dist.ReduceOp.MAX)
        gathered = [torch.zeros(1) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, torch.tensor([rank * 10.0]))
        b = torch.tensor([float(rank)])
        dist.broadcast(b, src=2)
        dist.barrier()
        return {
            "rank": dist.get_rank(),
            "thread": threading.current_thread().name,
            "sum": t.tolist(),
            "max": m.item(),
            "gathered": [g.item() for g in gathered],
            "broadcast": b.item(),
            "version": t._version,
        }

    got = run_ranks(3, collectives)
    for rank in range(3):
        r = got[rank]
        assert r["rank"] == rank
        assert r["thread"] == f"rank{rank}"
        assert r["sum"] == [3.0, 3.0]
        assert r["max"] == 2.0
        assert r["gathered"] == [0.0, 10.0, 20.0]
        assert r["broadcast"] == 2.0
        assert r["version"] == 1  # a collective writes its tensor in place


def test_not_initialized_errors_and_single_rank() -> None:
    assert dist.is_available() and not dist.is_initialized()
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        dist.get_rank()
    with pytest.raises(ValueError, match="Default process group has not been initialized"):
        dist.all_reduce(torch.ones(1))
    got = run_ranks(1, lambda rank: torch.nn.SyncBatchNorm(2)(torch.ones(4, 2)).grad_fn)
    assert got[0] is None or got[0].name() == "NativeBatchNormBackward0"


def test_a_failing_rank_fails_the_spawn_with_its_error() -> None:
    def fails(rank: int) -> None:
        if rank == 1:
            raise ZeroDivisionError("rank 1 broke")
        dist.barrier()  # rank 0 waits for rank 1, which never comes

    with pytest.raises(mp.ProcessRaisedException, match="rank 1 broke"):
        run_ranks(2, fails)
