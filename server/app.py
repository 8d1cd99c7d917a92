"""The FastAPI application factory: `create_app(settings)`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from server import __version__
from server.limits import ClientLimits
from server.routers import examples, health, runs, ws
from server.routers.frontend import mount_frontend
from server.runs import RunManager, Runner, Runs, run_limits
from server.settings import Settings
from server.storage import RunStore, StoreUnavailable, open_store
from server.trust.guard import Guard
from server.trust.hosts import HostPolicy
from server.trust.identity import Identifier
from server.trust.tokens import Signer, load_key


def _make_runner(settings: Settings) -> Runner:
    from server.sandbox import Sandbox

    return Sandbox(settings.sandbox)


def _replica_manager(settings: Settings, store: RunStore) -> Runs:
    """Cluster mode: runs are queued for runner services (server/cluster)."""
    from server.cluster import ReplicaManager

    url = settings.database_url
    if url is None or not url.startswith(("postgresql://", "postgres://")):
        raise StoreUnavailable(
            "BACKSCOPE_RUNNERS=queue needs BACKSCOPE_DATABASE_URL=postgresql://... (the queue)"
        )
    return ReplicaManager(
        store,
        url,
        run_limits(settings),
        settings.disconnect_grace_s,
        settings.cluster_poll_s,
        settings.cluster_sweep_s,
    )


def create_app(settings: Settings | None = None, runner: Runner | None = None) -> FastAPI:
    """Build the app (one per server process, one per test)."""
    settings = settings or Settings()
    from protocol import PROTOCOL_VERSION

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager: Runs = app.state.manager
        await manager.recover(settings.stale_run_s)
        manager.start_background(settings.stale_run_s)
        yield
        # SIGTERM (uvicorn stops accepting first): in-flight runs end `interrupted`, stored
        await manager.shutdown(settings.shutdown_grace_s)
        close = getattr(app.state.runner, "close", None)
        if close is not None:
            await close()
        app.state.store.close()

    app = FastAPI(title="backscope", version=__version__, lifespan=lifespan)
    state: Any = app.state
    state.settings = settings
    where = settings.database()
    state.store, state.recovery = open_store(where, settings.check_db_on_start)
    if settings.runners == "queue":
        state.manager = state.runner = _replica_manager(settings, state.store)
    else:
        state.runner = runner if runner is not None else _make_runner(settings)
        state.manager = RunManager(
            state.runner, state.store, PROTOCOL_VERSION, run_limits(settings)
        )
    state.limits = ClientLimits(
        settings.rate_limit_burst,
        settings.rate_limit_per_minute,
        settings.max_connections_per_client,
        settings.max_http_reads,
        settings.max_http_reads_per_client,
    )
    # replicas sharing a PostgreSQL database must share the key too (BACKSCOPE_SECRET_KEY)
    folder = where.parent if isinstance(where, Path) else settings.db_path.parent
    signer = Signer(load_key(settings.secret_key, folder))
    state.identifier = Identifier(
        signer,
        settings.trusted_proxies,
        settings.auth_header,
        settings.token_mint_burst,
        settings.token_mints_per_minute,
    )
    for router in (health.router, examples.router, runs.router, ws.router):
        app.include_router(router)
    mount_frontend(app, settings.frontend_dist)
    policy = HostPolicy.for_bind(
        settings.bind_host, settings.allowed_hosts, settings.allowed_origins
    )
    app.add_middleware(
        Guard,
        policy=policy,
        identifier=state.identifier,
        access_token=settings.access_token,
        send_stall_s=settings.send_stall_s,
    )
    return app
