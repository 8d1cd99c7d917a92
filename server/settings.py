"""Server configuration (pydantic-settings; environment variables prefixed `BACKSCOPE_`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import platformdirs
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from server.sandbox.settings import GiB, MiB, SandboxSettings

ROOT = Path(__file__).resolve().parent.parent


def _default_db() -> Path:
    return Path(platformdirs.user_data_dir("backscope")) / "runs.sqlite3"


def _words(value: object) -> object:
    """A list setting from the environment: comma- or space-separated words (or JSON)."""
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            import json

            return json.loads(text)
        return [w for w in text.replace(",", " ").split() if w]
    return value


Words = Annotated[list[str], NoDecode]


class Settings(BaseSettings):
    """Everything the app reads from its environment, with defaults for a laptop."""

    model_config = SettingsConfigDict(env_prefix="BACKSCOPE_", extra="ignore")

    database_url: str | None = Field(
        default=None,
        description="sqlite:///path or postgresql://user:password@host/db (default: an SQLite"
        " file in the data dir)",
    )
    db_path: Path = Field(default_factory=_default_db)
    examples_dir: Path = ROOT / "examples"
    frontend_dist: Path = ROOT / "frontend" / "dist"
    # websocket batching: one event per frame caps a browser near 6k/s; batches reach 140k/s
    flush_interval_s: float = 0.02
    flush_max_events: int = 500
    # a dropped client may come back (`resume`) within this many seconds before its run dies
    disconnect_grace_s: float = 10.0
    # runs started per client address: a token bucket
    rate_limit_burst: int = 20
    rate_limit_per_minute: float = 60.0
    max_message_bytes: int = 2 * 1024 * 1024
    # open websockets per client address: each holds memory and a task in the server
    max_connections_per_client: int = 256
    # connections before the app sees them (server/trust/connections.py): a request head must
    # be complete this long after connecting (or after the previous response); open
    # connections from one address (trusted proxies not counted), and in all (0: the
    # open-file limit less what the server keeps for itself)
    request_head_s: float = Field(default=10.0, gt=0)
    max_connections_per_address: int = Field(default=512, ge=1)
    max_open_connections: int = Field(default=0, ge=0)

    # -- who may connect (Jupyter's local_hostnames / allow_origin) ------------------------
    # the address the server is bound to (`backscope serve --host`): allowed as a Host name
    bind_host: str = "127.0.0.1"
    # Host names allowed besides the bound host, localhost, 127.0.0.1 and [::1] ("*": any,
    # when a proxy in front checks the name)
    allowed_hosts: Words = []
    # origins (scheme://host[:port]) whose pages may open the websocket or change state,
    # besides the server's own
    allowed_origins: Words = []

    # -- who owns a run --------------------------------------------------------------------
    # signs owner cookies (default: a key made once in the database's folder)
    secret_key: str | None = None
    # when set, every request must carry it (?token= once, then a cookie; or a Bearer header)
    access_token: str | None = None
    # proxies whose X-Forwarded-For / X-Forwarded-Proto (and auth_header) are believed
    trusted_proxies: Words = []
    # a header naming the authenticated user, set by a trusted proxy (e.g. X-Forwarded-User):
    # runs then belong to users, and limits are per user
    auth_header: str | None = None
    # owner tokens handed out per address (a burst, then per minute): each is a set of limits
    token_mint_burst: int = Field(default=50, ge=1)
    token_mints_per_minute: float = Field(default=20.0, gt=0)

    # -- storage ---------------------------------------------------------------------------
    max_run_bytes: int = Field(default=64 * MiB, ge=1)  # a run's log; ended `limit` past it
    max_store_bytes: int = Field(default=4 * GiB, ge=1)
    # one owner's share of the store (0: no cap of its own); its oldest runs go first
    max_owner_bytes: int = Field(default=1 * GiB, ge=0)
    retention_days: float = Field(default=0.0, ge=0)  # 0: keep runs until space is needed
    store_flush_s: float = Field(default=2.0, gt=0)  # a crash loses at most this much
    # a run left `running` by a server on another host is interrupted after this long
    stale_run_s: float = Field(default=60.0, gt=0)
    check_db_on_start: bool = True  # quick_check the file (about a second per GB)
    # clients may ask for inline values of tensors up to this many elements (not more)
    max_inline_limit: int = Field(default=4096, ge=0)

    # -- sending ---------------------------------------------------------------------------
    frame_bytes: int = Field(default=1 * MiB, ge=1024)  # about this much per websocket frame
    # unread replies a socket may have queued before it is dropped
    max_reply_bytes: int = Field(default=1 * MiB, ge=1024)
    # a frame (or HTTP piece) that cannot be written for this long drops its connection
    send_stall_s: float = Field(default=120.0, gt=0)
    # reads of runs over HTTP streamed at once (all clients / one client)
    max_http_reads: int = Field(default=32, ge=1)
    max_http_reads_per_client: int = Field(default=8, ge=1)
    # seconds a SIGTERM waits for in-flight runs to end and be stored
    shutdown_grace_s: float = Field(default=10.0, gt=0)

    # -- beyond one machine (server/cluster) ------------------------------------------------
    # where runs run: "local", this process's sandbox; "queue", `backscope runner` services
    # that take them from a queue in the PostgreSQL database (database_url), every replica
    # following any run from the shared store
    runners: Literal["local", "queue"] = "local"
    # a runner stores a run's growing log at most this often (replicas follow from the store)
    cluster_flush_s: float = Field(default=0.05, gt=0)
    # a replica reads a followed run's row, a runner the queue, at least this often (both
    # are woken by notifications first: this is for one that was missed)
    cluster_poll_s: float = Field(default=1.0, gt=0)
    # how often runners and replicas look for runners that died (and end their runs)
    cluster_sweep_s: float = Field(default=2.0, gt=0)

    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)

    @field_validator("allowed_hosts", "allowed_origins", "trusted_proxies", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        return _words(value)

    def database(self) -> Path | str:
        """Where runs are stored: an SQLite file's path (from `database_url` when it is
        sqlite:///path, else `db_path`), or a PostgreSQL URL."""
        from server.storage.location import locate

        return locate(self.database_url, self.db_path)
