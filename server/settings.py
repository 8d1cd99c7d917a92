"""Server configuration (pydantic-settings; environment variables prefixed `BACKSCOPE_`)."""

from __future__ import annotations

from pathlib import Path

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from server.sandbox.settings import SandboxSettings

ROOT = Path(__file__).resolve().parent.parent


def _default_db() -> Path:
    return Path(platformdirs.user_data_dir("backscope")) / "runs.sqlite3"


class Settings(BaseSettings):
    """Everything the app reads from its environment, with defaults for a laptop."""

    model_config = SettingsConfigDict(env_prefix="BACKSCOPE_", extra="ignore")

    database_url: str | None = Field(
        default=None, description="sqlite:///path (default: an SQLite file in the data dir)"
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
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)

    def sqlite_path(self) -> Path:
        """The SQLite file to use, from `database_url` when it names one."""
        url = self.database_url
        if url is None:
            return self.db_path
        if url.startswith("sqlite:///"):
            return Path(url[len("sqlite:///") :])
        raise ValueError(
            f"unsupported database URL {url!r}: this build stores runs in SQLite "
            "(sqlite:///path/to/file)"
        )
