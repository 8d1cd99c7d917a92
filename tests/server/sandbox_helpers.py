"""Running snippets through the real sandbox from synchronous tests."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from server.sandbox import RunHandle, Sandbox, SandboxSettings
from server.sandbox.reaper import pids_of_uid

# x*x summed has gradient 2x, so the grad printed for [1, 2] is [2, 4]
NORMAL = """import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
print(x.grad)
"""
NORMAL_OUT = "tensor([2., 4.])\n"


# Time limits in tests: a limit is short only where the test is about that limit. Everywhere else
# the clocks are far beyond any run's duration on a slow, loaded machine, so that a run meant to
# end by its own error, a memory or output cap, or by finishing, can never end by a clock instead.
GENEROUS_WALL_S = 120.0
GENEROUS_CPU_S = 60


def short_settings(**overrides: Any) -> SandboxSettings:
    """Small caps (memory, files, output, events) so the abuse suite stays fast on 2 cores, and
    generous clocks (see GENEROUS_WALL_S)."""
    values: dict[str, Any] = {
        "wall_seconds": GENEROUS_WALL_S,
        "cpu_seconds": GENEROUS_CPU_S,
        "memory_bytes": 768 * 1024 * 1024,
        "file_size_bytes": 4 * 1024 * 1024,
        "tmp_size_bytes": 8 * 1024 * 1024,
        "processes": 32,
        "open_files": 64,
        "max_output_bytes": 256 * 1024,
        "max_line_bytes": 16 * 1024,
        "max_events": 5000,
        "max_tensor_elements": 2_000_000,
        "max_workers": 2,
    }
    return SandboxSettings(**(values | overrides))


def cpu_limited(**overrides: Any) -> SandboxSettings:
    """A 2 s CPU limit that a spinning run meets long before the wall clock, however loaded the
    machine: the run needs only ~2 % of a core to burn 2 s of CPU within the wall clock."""
    return short_settings(**({"cpu_seconds": 2} | overrides))


def wall_limited(**overrides: Any) -> SandboxSettings:
    """A 2 s wall clock for runs that wait without using CPU (sleep, select, a stopped process)."""
    return short_settings(**({"wall_seconds": 2.0} | overrides))


@dataclass
class Result:
    """How one run ended and everything it sent."""

    status: str
    summary: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)

    def text(self, stream: str = "stdout") -> str:
        """Everything printed on `stream`, by any route."""
        return "".join(e["text"] for e in self.events if e["type"] == stream)

    def errors(self) -> list[dict[str, Any]]:
        """The error events (the snippet's own, or the sandbox's)."""
        return [e for e in self.events if e["type"] == "error"]


async def collect(handle: RunHandle) -> Result:
    """Drain a run's events and wait for its end."""
    events = [e async for batch in handle.events() for e in batch]
    summary = await handle.wait()
    return Result(handle.status, summary, events)


async def run_one(sandbox: Sandbox, code: str, **options: Any) -> Result:
    """Run `code` to its end."""
    return await collect(await sandbox.run(code, options))


def run_sync(sandbox: Sandbox, code: str, **options: Any) -> Result:
    """Run `code` to its end from a synchronous test."""
    return asyncio.run(run_one(sandbox, code, **options))


def alongside(
    sandbox: Sandbox, code: str, parallel: bool, others: Sandbox | None = None
) -> tuple[Result, Result]:
    """Run `code` and the normal snippet (in `others`, by default the same sandbox), at the same
    time or the normal one right after."""
    normal_in = others or sandbox

    async def both() -> tuple[Result, Result]:
        if parallel:
            bad, good = await asyncio.gather(run_one(sandbox, code), run_one(normal_in, NORMAL))
            return bad, good
        bad = await run_one(sandbox, code)
        return bad, await run_one(normal_in, NORMAL)

    return asyncio.run(both())


def leftover_pids(sandbox: Sandbox) -> list[int]:
    """Processes still running under any of the sandbox's slot uids."""
    return [pid for uid in sandbox.slot_uids() for pid in pids_of_uid(uid)]
