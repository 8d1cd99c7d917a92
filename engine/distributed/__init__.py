"""`torch.distributed` with a local backend: the ranks are threads of the run's own process
(started by `torch.multiprocessing.spawn`, or by the snippet), so collectives, SyncBatchNorm
and per-rank graphs all happen in one run. Grad mode is per thread, as in PyTorch, and each
rank thread has its own default RNG, as a process would.

>>> def worker(rank, world_size):
...     dist.init_process_group("gloo", rank=rank, world_size=world_size)
...     t = torch.ones(1) * rank; dist.all_reduce(t)   # t == sum of ranks on every rank
>>> torch.multiprocessing.spawn(worker, args=(2,), nprocs=2)
"""

from __future__ import annotations

import enum
import os
from typing import Any

import numpy as np

from engine._tensor import Tensor
from engine.distributed.world import MEMBER, World, join

_NOT_INITIALIZED = (
    "Default process group has not been initialized, please make sure to call init_process_group."
)


class ReduceOp(enum.Enum):
    SUM = 0
    AVG = 1
    PRODUCT = 2
    MIN = 3
    MAX = 4

    def __str__(self) -> str:
        return f"RedOpType.{self.name}"

    def __repr__(self) -> str:
        return f"<RedOpType.{self.name}: {self.value}>"


class group:
    WORLD: Any = None


class Work:
    """What an `async_op=True` collective returns: already complete here."""

    def wait(self, timeout: Any = None) -> bool:
        return True

    def is_completed(self) -> bool:
        return True


def is_available() -> bool:
    return True


def is_initialized() -> bool:
    """True once this rank (thread) has called init_process_group."""
    return MEMBER.world is not None


def _world() -> World:
    world = MEMBER.world
    if world is None:
        raise ValueError(_NOT_INITIALIZED)
    return world


def init_process_group(
    backend: str | None = None,
    init_method: str | None = None,
    timeout: Any = None,
    world_size: int = -1,
    rank: int = -1,
    store: Any = None,
    group_name: str = "",
    pg_options: Any = None,
    device_id: Any = None,
) -> None:
    """Join this thread to a group of `world_size` ranks as `rank` (environment variables
    RANK / WORLD_SIZE when not given); returns once every rank has joined."""
    if MEMBER.world is not None:
        raise ValueError("trying to initialize the default process group twice!")
    if world_size == -1:
        world_size = int(os.environ.get("WORLD_SIZE", "1"))
    if rank == -1:
        rank = int(os.environ.get("RANK", "0"))
    if not 0 <= rank < world_size:
        raise ValueError(
            f"Invalid rank {rank}, rank should be in the interval [0, {world_size - 1}]"
        )
    key = init_method or "{}:{}".format(
        os.environ.get("MASTER_ADDR", "localhost"), os.environ.get("MASTER_PORT", "0")
    )
    world = join(key, world_size, rank, backend or "gloo")
    MEMBER.world, MEMBER.rank, MEMBER.joined = world, rank, world
    world.barrier.wait()  # the rendezvous: every rank is in before anyone goes on


def destroy_process_group(group: Any = None) -> None:
    MEMBER.world, MEMBER.rank = None, -1


def get_rank(group: Any = None) -> int:
    """This thread's rank in the group."""
    _world()
    return MEMBER.rank


def get_world_size(group: Any = None) -> int:
    return _world().size


def get_backend(group: Any = None) -> str:
    return _world().backend


def barrier(group: Any = None, async_op: bool = False, device_ids: Any = None) -> Work | None:
    """Wait until every rank reaches the barrier."""
    _world().exchange(MEMBER.rank, None)
    return Work() if async_op else None


def _write(tensor: Tensor, data: np.ndarray[Any, Any]) -> None:
    """A collective's in-place result (a write autograd does not record, as in PyTorch)."""
    from engine._tensor import write

    write(tensor, data)


def _reduce(arrays: list[np.ndarray[Any, Any]], op: ReduceOp) -> np.ndarray[Any, Any]:
    stacked = np.stack(arrays)
    if op is ReduceOp.SUM:
        return np.asarray(stacked.sum(axis=0))
    if op is ReduceOp.AVG:
        return np.asarray(stacked.mean(axis=0))
    if op is ReduceOp.PRODUCT:
        return np.asarray(stacked.prod(axis=0))
    if op is ReduceOp.MIN:
        return np.asarray(stacked.min(axis=0))
    return np.asarray(stacked.max(axis=0))


def all_reduce(
    tensor: Tensor, op: ReduceOp = ReduceOp.SUM, group: Any = None, async_op: bool = False
) -> Work | None:
    """Reduce `tensor` across ranks (sum by default); every rank gets the result in place."""
    world = _world()
    values = world.exchange(MEMBER.rank, tensor._d.copy())
    _write(tensor, _reduce(values, op))
    return Work() if async_op else None


def reduce(
    tensor: Tensor, dst: int, op: ReduceOp = ReduceOp.SUM, group: Any = None, async_op: bool = False
) -> Work | None:
    """Like all_reduce, but only rank `dst` receives the result."""
    world = _world()
    values = world.exchange(MEMBER.rank, tensor._d.copy())
    if MEMBER.rank == dst:
        _write(tensor, _reduce(values, op))
    return Work() if async_op else None


def all_gather(
    tensor_list: list[Tensor], tensor: Tensor, group: Any = None, async_op: bool = False
) -> Work | None:
    """Every rank's `tensor`, into `tensor_list` (one per rank) on every rank."""
    world = _world()
    if len(tensor_list) != world.size:
        raise ValueError(
            f"all_gather: tensor_list has {len(tensor_list)} tensors, expected {world.size}"
        )
    values = world.exchange(MEMBER.rank, tensor._d.copy())
    for out, v in zip(tensor_list, values):
        _write(out, v)
    return Work() if async_op else None


def all_gather_into_tensor(
    output_tensor: Tensor, input_tensor: Tensor, group: Any = None, async_op: bool = False
) -> Work | None:
    """Every rank's `input_tensor`, concatenated along the first dimension (or stacked)."""
    world = _world()
    values = world.exchange(MEMBER.rank, input_tensor._d.copy())
    _write(
        output_tensor,
        np.concatenate([v.reshape(-1) for v in values]).reshape(output_tensor._d.shape),
    )
    return Work() if async_op else None


def broadcast(tensor: Tensor, src: int, group: Any = None, async_op: bool = False) -> Work | None:
    """Rank `src`'s `tensor`, copied into `tensor` on every rank."""
    world = _world()
    values = world.exchange(MEMBER.rank, tensor._d.copy() if MEMBER.rank == src else None)
    if MEMBER.rank != src:
        _write(tensor, values[src])
    return Work() if async_op else None


def all_gather_object(object_list: list[Any], obj: Any, group: Any = None) -> None:
    world = _world()
    object_list[:] = world.exchange(MEMBER.rank, obj)


def broadcast_object_list(object_list: list[Any], src: int = 0, group: Any = None) -> None:
    world = _world()
    values = world.exchange(MEMBER.rank, list(object_list) if MEMBER.rank == src else None)
    object_list[:] = values[src]


__all__ = [
    "ReduceOp",
    "Work",
    "all_gather",
    "all_gather_into_tensor",
    "all_gather_object",
    "all_reduce",
    "barrier",
    "broadcast",
    "broadcast_object_list",
    "destroy_process_group",
    "get_backend",
    "get_rank",
    "get_world_size",
    "group",
    "init_process_group",
    "is_available",
    "is_initialized",
    "reduce",
]
