"""`GET /healthz`: status, the sandbox mode in force, storage, the version."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from server import __version__

router = APIRouter()


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """Liveness plus what a deployer must know: which sandbox protects this server, and what
    storage found (a database it had to move aside) and holds."""
    state = request.app.state
    health = state.runner.health()
    recovery = state.recovery
    usage = await asyncio.to_thread(state.store.usage)
    settings = state.settings
    storage: dict[str, Any] = {
        "status": "recovered" if recovery.moved_to else "ok",
        "database": state.store.kind,
        "runs": usage.runs,
        "bytes": usage.bytes,
        "file_bytes": usage.file_bytes,
        "max_store_bytes": settings.max_store_bytes,
        "max_run_bytes": settings.max_run_bytes,
        "errors": state.manager.storage_errors,
        "interrupted_on_start": len(state.manager.recovered),
    }
    if recovery.moved_to:
        storage["moved_to"] = recovery.moved_to
        storage["reason"] = recovery.reason
    return {
        "status": "ok",
        "sandbox": health["mode"],
        "version": __version__,
        "runner": health,
        "storage": storage,
        "server": state.manager.machine.state.value,
    }
