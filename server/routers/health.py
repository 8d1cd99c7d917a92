"""`GET /healthz`: status, the sandbox mode in force, the version."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from server import __version__

router = APIRouter()


@router.get("/healthz")
def healthz(request: Request) -> dict[str, Any]:
    """Liveness plus what a deployer must know: which sandbox protects this server."""
    health = request.app.state.runner.health()
    return {"status": "ok", "sandbox": health["mode"], "version": __version__, "runner": health}
