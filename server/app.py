"""The FastAPI application factory."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from server import __version__

_PLACEHOLDER = """<!doctype html><title>backscope</title>
<h1>backscope</h1><p>The engine is here; the browser app arrives with the frontend issue.</p>"""


def create_app() -> FastAPI:
    """Build the app (one instance per server or per test)."""
    app = FastAPI(title="backscope", version=__version__)

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return _PLACEHOLDER

    return app
