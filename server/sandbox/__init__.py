"""Running pasted code: one fresh, locked-down worker process per run (see DESIGN.md, Sandbox).

>>> sandbox = Sandbox(SandboxSettings())       # probes bubblewrap once; see sandbox.health()
>>> handle = await sandbox.run(code, {"pause_in_backward": True}, on_queue=print)
>>> async for batch in handle.events():        # checked Batch objects (iterate: event dicts)
...     await handle.send({"type": "step"})    # stepper commands go to the worker
>>> summary = await handle.wait()              # handle.status: ok|error|timeout|killed|limit

`run` raises RunRefused (kind 'unavailable', 'code_too_large', 'queue_full'). Runs beyond
`max_workers` wait in a queue shared fairly between owners (`run(..., owner=client address)`;
`handle.queue_position`, 1 = next, 0 = running). When the
sandbox ends a run itself (timeout, cap, crash, malformed stream) the last batch holds an event
`{"type": "error", "source": "sandbox", "kind": <status>, "message": ...}`. Text written to fd 1/2
outside sys.stdout arrives as stdout/stderr events whose `t` is the parent's clock since spawn.

Every limit is the server's: memory, processes and CPU time count over all of a run's processes
(budget: cgroups, or a /proc meter), and the wall clock stops only for a pause the server sees
in /proc (pause), whatever the run sends. `sandbox.health()["limits"]` says how.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from server.sandbox.command import Mode
    from server.sandbox.runner import RunHandle, RunRefused, Sandbox
    from server.sandbox.settings import SandboxSettings

__all__ = ["Mode", "RunHandle", "RunRefused", "Sandbox", "SandboxSettings"]

# Imported on first use: the worker imports this package too, and must not pay for asyncio
# and pydantic on every run's startup.
_HOME = {
    "Mode": "server.sandbox.command",
    "RunHandle": "server.sandbox.runner",
    "RunRefused": "server.sandbox.runner",
    "Sandbox": "server.sandbox.runner",
    "SandboxSettings": "server.sandbox.settings",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module 'server.sandbox' has no attribute {name!r}")
