"""Serves the built frontend at `/` (or a page saying how to build it)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

_MISSING = """<!doctype html><meta charset="utf-8"><title>backscope</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5">
<h1>backscope</h1><p>The browser app has not been built yet. From the project folder run
<code>make run</code> (or <code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>),
then reload this page. The API is up: see <a href="/docs">/docs</a>.</p></body>"""


def mount_frontend(app: FastAPI, dist: Path) -> None:
    """Mount `dist` at `/` when it holds a build; otherwise serve the how-to-build page."""
    if (dist / "index.html").is_file():
        app.mount("/", StaticFiles(directory=dist, html=True), name="frontend")
        return
    router = APIRouter()

    @router.get("/", response_class=HTMLResponse)
    def missing() -> str:
        return _MISSING

    app.include_router(router)
