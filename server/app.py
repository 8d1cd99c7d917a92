"""The FastAPI application factory: `create_app(settings)`."""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from server import __version__
from server.routers import examples, health, runs, ws
from server.routers.frontend import mount_frontend
from server.runs import RunManager, Runner
from server.session import RateLimiter
from server.settings import Settings
from server.storage import SqliteRunStore


def _make_runner(settings: Settings) -> Runner:
    from server.sandbox import Sandbox

    return Sandbox(settings.sandbox)


def create_app(settings: Settings | None = None, runner: Runner | None = None) -> FastAPI:
    """Build the app (one per server process, one per test)."""
    settings = settings or Settings()
    from protocol import PROTOCOL_VERSION
    from server.session import parse

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await app.state.manager.shutdown()
        close = getattr(app.state.runner, "close", None)
        if close is not None:
            await close()
        app.state.store.close()

    app = FastAPI(title="backscope", version=__version__, lifespan=lifespan)
    state: Any = app.state
    state.settings = settings
    state.store = SqliteRunStore(settings.sqlite_path())
    state.runner = runner if runner is not None else _make_runner(settings)
    state.manager = RunManager(state.runner, state.store, PROTOCOL_VERSION)
    state.limiter = RateLimiter(settings.rate_limit_burst, settings.rate_limit_per_minute)
    state.parse_command = parse
    state.connections = Counter[str]()  # open websockets per client address
    for router in (health.router, examples.router, runs.router, ws.router):
        app.include_router(router)
    mount_frontend(app, settings.frontend_dist)
    return app
