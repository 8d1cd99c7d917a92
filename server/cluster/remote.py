"""A run that a runner service holds, as a replica's session commands it: through the bus."""

from __future__ import annotations

from typing import Any

import orjson

from server.cluster.bus import COMMANDS, Bus
from server.cluster.queue import JobQueue


class RemoteControl:
    """Commands to run `run_id`, wherever it runs (the Control a replica's LiveRun holds)."""

    def __init__(self, bus: Bus, queue: JobQueue, run_id: str) -> None:
        self.bus = bus
        self.queue = queue
        self.run_id = run_id

    async def send(self, command: dict[str, Any]) -> None:
        """Pass an owner's command to the runner (ValueError: too large to pass)."""
        payload = orjson.dumps({"run_id": self.run_id, "command": command}).decode()
        await self.bus.notify(COMMANDS, payload)

    async def kill(self, reason: str) -> None:
        """Stop the run: noted on its job (a runner that has not claimed it yet ends it at
        once), and told to the runner that holds it."""
        await self.queue.stop(self.run_id, reason)
        await self.send({"type": "stop", "reason": reason})
