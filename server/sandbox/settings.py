"""Sandbox limits and mode (pydantic-settings; environment variables prefixed `BACKSCOPE_`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB


class SandboxSettings(BaseSettings):
    """Limits for one run of pasted code, and how it is isolated."""

    model_config = SettingsConfigDict(env_prefix="BACKSCOPE_", extra="ignore")

    # auto = bubblewrap if it works, else refuse to run code; weak only when asked for by name
    sandbox_mode: Literal["auto", "bwrap", "weak"] = "auto"
    bwrap_path: str = "bwrap"
    # CPU time of a whole run, all its processes together (each process also by RLIMIT_CPU)
    cpu_seconds: int = Field(default=10, ge=1)
    # wall-clock time while running; time the server sees the run wait in a pause it was asked
    # for (server.sandbox.pause) counts separately
    wall_seconds: float = Field(default=30.0, gt=0)
    pause_seconds: float = Field(default=600.0, gt=0)
    # ... but only this long while another client's run waits for a slot: a paused run holds
    # its slot, and a few of them must not keep everyone else waiting for pause_seconds
    contended_pause_seconds: float = Field(default=60.0, gt=0)
    # for a whole run, all its processes together (see server.sandbox.budget)
    memory_bytes: int = Field(default=1 * GiB, ge=64 * MiB)
    # auto = the kernel's accounting (cgroups) where the server may make them, else the meter;
    # meter = always the /proc meter
    accounting: Literal["auto", "meter"] = "auto"
    file_size_bytes: int = Field(default=16 * MiB, ge=0)
    tmp_size_bytes: int = Field(default=32 * MiB, ge=MiB)
    open_files: int = Field(default=128, ge=16)
    # counted per uid, so each worker slot has its own uid (NPROC is ignored for root); with
    # cgroups also per run (pids.max)
    processes: int = Field(default=16, ge=4)
    max_code_bytes: int = Field(default=256 * KiB, ge=1)
    max_output_bytes: int = Field(default=1 * MiB, ge=1)
    max_line_bytes: int = Field(default=64 * KiB, ge=1)
    max_events: int = Field(default=200_000, ge=1)
    # bytes of events a run may send (a snippet can call the tracer's sink with huge events;
    # each run's log is held in the server's memory until it is stored)
    max_event_bytes: int = Field(default=128 * MiB, ge=1)
    max_tensor_elements: int = Field(default=10_000_000, ge=1)
    # full values stored with the run (finished runs and share links show heatmaps and
    # tables): tensors of up to this many elements, until the run has sent this many in all
    values_per_tensor: int = Field(default=1 << 16, ge=0)
    values_budget: int = Field(default=1_000_000, ge=0)
    # `tensor_values` answers: elements one request may get, and all of a run's answers
    values_request_cap: int = Field(default=1_000_000, ge=0)
    values_answer_budget: int = Field(default=2_000_000, ge=0)
    max_frame_bytes: int = Field(default=8 * MiB, ge=1024)
    max_workers: int = Field(default=2, ge=1)
    # start a free slot's next worker ahead of its run (imports done, waiting for the job):
    # a click then skips the ~0.2 s of importing numpy and the engine
    prestart: bool = True
    # how many such workers wait at most, on the free slots handed out next; a run that takes
    # one starts the next, so a second run soon after still finds one. Each costs a boot
    # (~0.7 CPU-s) and is thrown away unused when the server stops or the settings change.
    spare_workers: int = Field(default=1, ge=1)
    # queued runs beyond this are refused at once instead of piling up
    max_queue: int = Field(default=64, ge=0)
    # first uid of the slots' block; a block in use (by another Sandbox or server) is skipped
    slot_uid_base: int = Field(default=60000, ge=1000)
