"""The sandbox's parts (frames, caps, queue, mode) and its normal runs, against real workers."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from server.sandbox import RunRefused, Sandbox, SandboxSettings
from server.sandbox.batch import Batch
from server.sandbox.command import APP_ROOT, bwrap_argv, detect_mode
from server.sandbox.frames import HEADER, FrameError, FrameReader, encode
from server.sandbox.meter import LimitExceeded, Meter
from server.sandbox.slots import QueueFull, SlotPool
from tests.server.sandbox_helpers import (
    NORMAL,
    NORMAL_OUT,
    collect,
    leftover_pids,
    run_sync,
    short_settings,
)


@pytest.fixture(scope="module")
def sandbox() -> Sandbox:
    return Sandbox(short_settings())


def test_frames_round_trip_across_arbitrary_chunking() -> None:
    data = encode([{"type": "stdout", "text": "a"}]) + encode({"summary": {"status": "ok"}})
    reader = FrameReader(1024)
    got = [frame for i in range(len(data)) for frame in reader.feed(data[i : i + 1])]
    assert [f if isinstance(f, dict) else list(f) for f in got] == [
        [{"type": "stdout", "text": "a"}],
        {"summary": {"status": "ok"}},
    ]
    assert reader.pending == 0


@pytest.mark.parametrize(
    "payload",
    [b"not json", b"[1, 2]", b'"text"', b'[{"type": 3}]', b"[{}]"],
)
def test_frames_reject_malformed_bodies(payload: bytes) -> None:
    with pytest.raises(FrameError):
        FrameReader(1024).feed(HEADER.pack(len(payload)) + payload)


def test_frames_reject_an_oversized_header_before_reading_the_body() -> None:
    with pytest.raises(FrameError, match="exceeds"):
        FrameReader(1024).feed(HEADER.pack(1 << 30))


def test_meter_caps_line_length_across_writes_and_total_output() -> None:
    meter = Meter(SandboxSettings(max_line_bytes=10, max_output_bytes=100))
    meter.text("stdout", "12345")
    meter.text("stdout", "1234\n12345678")
    with pytest.raises(LimitExceeded, match="line"):
        meter.text("stdout", "123")
    meter = Meter(SandboxSettings(max_line_bytes=10, max_output_bytes=30))
    for _ in range(5):
        meter.text("stderr", "12345\n")
    with pytest.raises(LimitExceeded, match="bytes of output"):
        meter.text("stderr", "1\n")


def test_meter_caps_event_count() -> None:
    meter = Meter(SandboxSettings(max_events=3))
    meter.events_in(Batch.of([{"type": "node"}, {"type": "node"}, {"type": "node"}]))
    with pytest.raises(LimitExceeded, match="events"):
        meter.events_in(Batch.of([{"type": "node"}]))


def test_meter_caps_tensor_elements_from_tensor_events() -> None:
    meter = Meter(SandboxSettings(max_tensor_elements=100))
    meter.events_in(Batch.of([{"type": "tensor", "tensor": {"shape": [10, 10]}}]))
    with pytest.raises(LimitExceeded, match="101 elements"):
        meter.events_in(Batch.of([{"type": "tensor", "tensor": {"shape": [101]}}]))


def test_slot_pool_queues_in_order_and_reports_positions() -> None:
    async def scenario() -> list[tuple[str, int]]:
        pool = SlotPool(1, max_queue=2)
        seen: list[tuple[str, int]] = []
        first = await pool.acquire(lambda p: seen.append(("a", p)))
        b = asyncio.create_task(pool.acquire(lambda p: seen.append(("b", p))))
        c = asyncio.create_task(pool.acquire(lambda p: seen.append(("c", p))))
        await asyncio.sleep(0)
        with pytest.raises(QueueFull):
            await pool.acquire(lambda p: None)
        pool.release(first)
        pool.release(await b)
        pool.release(await c)
        assert pool.busy == 0
        return seen

    seen = asyncio.run(scenario())
    assert seen == [("a", 0), ("b", 1), ("c", 2), ("b", 0), ("c", 1), ("c", 0)]


def test_bwrap_binds_only_usr_python_and_app_read_only() -> None:
    argv = bwrap_argv(SandboxSettings(), "bwrap", privileged=True)
    binds = [argv[i + 1] for i, a in enumerate(argv) if a in ("--bind", "--ro-bind")]
    assert "--bind" not in argv
    assert "/usr" in binds
    assert "/etc" not in binds and "/" not in binds and "/root" not in binds
    assert "--unshare-net" in argv and "--clearenv" in argv and "--die-with-parent" in argv


@pytest.mark.parametrize("privileged", [True, False])
def test_bwrap_leaves_only_tmp_writable_and_binds_only_the_workers_code(privileged: bool) -> None:
    argv = bwrap_argv(SandboxSettings(), "bwrap", privileged=privileged)
    remounted = [argv[i + 1] for i, a in enumerate(argv) if a == "--remount-ro"]
    assert remounted == ["/dev", "/"]  # after every mount below them
    assert argv.index("--remount-ro") > max(i for i, a in enumerate(argv) if a == "--ro-bind")
    binds = [argv[i + 1] for i, a in enumerate(argv) if a in ("--bind", "--ro-bind")]
    assert str(APP_ROOT) not in binds and str(APP_ROOT / "server" / "sandbox") in binds
    assert str(APP_ROOT / "engine") in binds


def test_missing_bwrap_refuses_to_run_code_and_says_why() -> None:
    settings = SandboxSettings(bwrap_path="/nonexistent/bwrap")
    mode = detect_mode(settings)
    assert mode.name == "refuse"
    assert "/nonexistent/bwrap" in mode.reason and "BACKSCOPE_SANDBOX_MODE=weak" in mode.reason
    sandbox = Sandbox(settings, mode)
    assert sandbox.health()["mode"] == "refuse"
    with pytest.raises(RunRefused) as info:
        run_sync(sandbox, "print(1)")
    assert info.value.kind == "unavailable"


def test_mode_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BACKSCOPE_SANDBOX_MODE", "weak")
    monkeypatch.setenv("BACKSCOPE_WALL_SECONDS", "7.5")
    settings = SandboxSettings()
    assert (settings.sandbox_mode, settings.wall_seconds) == ("weak", 7.5)


def test_auto_mode_uses_bubblewrap_here(sandbox: Sandbox) -> None:
    assert shutil.which("bwrap") is not None, "tools/system-deps.sh installs bubblewrap"
    assert sandbox.mode.name == "bwrap", sandbox.mode.reason
    assert sandbox.health()["separate_uid"] is True


def test_normal_run_streams_graph_events_and_prints(sandbox: Sandbox) -> None:
    result = run_sync(sandbox, NORMAL)
    assert result.status == "ok", result.summary
    assert result.text() == NORMAL_OUT
    types = {e["type"] for e in result.events}
    assert {"tensor", "node", "stdout"} <= types
    assert result.summary["worker"]["status"] == "ok"
    assert leftover_pids(sandbox) == []


def test_os_level_writes_arrive_as_text_events(sandbox: Sandbox) -> None:
    code = "import os\nos.write(1, b'raw out\\n')\nos.write(2, b'raw err\\n')\n"
    result = run_sync(sandbox, code)
    assert result.status == "ok"
    assert result.text("stdout") == "raw out\n"
    assert result.text("stderr") == "raw err\n"


def test_snippet_error_is_an_error_event_with_the_line(sandbox: Sandbox) -> None:
    result = run_sync(sandbox, "x = 1\n1 / 0\n")
    assert result.status == "error"
    [error] = result.errors()
    assert (error["error_type"], error["line"]) == ("ZeroDivisionError", 2)


def test_code_over_the_size_cap_is_refused_before_start(sandbox: Sandbox) -> None:
    with pytest.raises(RunRefused) as info:
        run_sync(sandbox, "#" * (10 * 1024 * 1024))
    assert info.value.kind == "code_too_large"


def test_stepper_commands_reach_the_worker(sandbox: Sandbox) -> None:
    async def scenario() -> tuple[str, list[str]]:
        handle = await sandbox.run(NORMAL, {"pause_in_backward": True})
        kinds: list[str] = []
        async for batch in handle.events():
            for event in batch:
                kinds.append(event["type"])
                if event["type"] == "paused":
                    await handle.send({"type": "continue"})
        await handle.wait()
        return handle.status, kinds

    status, kinds = asyncio.run(scenario())
    assert status == "ok"
    assert "paused" in kinds and kinds[-1] == "stdout"


def test_stop_command_and_kill_end_the_run(sandbox: Sandbox) -> None:
    async def scenario() -> tuple[str, str]:
        stepped = await sandbox.run(NORMAL, {"pause_in_backward": True})
        async for batch in stepped.events():
            if any(e["type"] == "paused" for e in batch):
                await stepped.send({"type": "stop"})
        sleeper = await sandbox.run("import time\ntime.sleep(100)\n")
        await asyncio.sleep(0.8)
        await sleeper.kill("client disconnected")
        return (await stepped.wait())["status"], (await sleeper.wait())["message"]

    stopped, killed_message = asyncio.run(scenario())
    assert stopped == "killed"
    assert killed_message == "client disconnected"
    assert leftover_pids(sandbox) == []


def test_runs_beyond_the_worker_limit_wait_in_a_visible_queue() -> None:
    sandbox = Sandbox(short_settings(max_workers=1))

    async def scenario() -> tuple[list[int], list[str]]:
        positions: list[int] = []
        first = await sandbox.run("import time\ntime.sleep(0.5)\n")
        second = await sandbox.run(NORMAL, on_queue=positions.append)
        assert sandbox.health()["queued"] == 1
        done = [await collect(first), await collect(second)]
        return positions, [r.status for r in done]

    positions, statuses = asyncio.run(scenario())
    assert positions == [1, 0]
    assert statuses == ["ok", "ok"]


def test_forged_frames_on_the_event_socket_end_the_run_as_an_error(sandbox: Sandbox) -> None:
    code = """import os, stat
for fd in range(3, 64):
    try:
        if stat.S_ISSOCK(os.fstat(fd).st_mode):
            os.write(fd, b"\\xff\\xff\\xff\\xff garbage")
    except OSError:
        pass
import time
time.sleep(5)
"""
    result = run_sync(sandbox, code)
    assert result.status == "error"
    assert "malformed event stream" in result.summary["message"]
    assert result.errors()[-1]["source"] == "sandbox"


def test_runs_under_uvloop_like_the_server(sandbox: Sandbox) -> None:
    import uvloop  # uvicorn[standard] installs it, and the server runs on it

    daemon = "import os, time\nif os.fork() == 0:\n    time.sleep(60)\nprint('parent')\n"

    async def scenario() -> list[str]:
        results = [await collect(await sandbox.run(code)) for code in (NORMAL, daemon)]
        return [r.text() for r in results]

    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        assert runner.run(scenario()) == [NORMAL_OUT, "parent\n"]
    assert leftover_pids(sandbox) == []


def test_killing_queued_runs_frees_their_place_and_ends_them() -> None:
    sandbox = Sandbox(short_settings(max_workers=1))

    async def scenario() -> list[str]:
        first = await sandbox.run("import time\ntime.sleep(0.3)\n")
        queued = [await sandbox.run(NORMAL) for _ in range(3)]
        await queued[0].kill("replaced")  # before its task has even started
        await asyncio.sleep(0)
        await queued[1].kill("replaced")  # while it waits in the queue
        results = [await collect(h) for h in (first, *queued)]
        assert sandbox.health()["busy"] == 0 and sandbox.health()["queued"] == 0
        return [r.status for r in results]

    assert asyncio.run(scenario()) == ["ok", "killed", "killed", "ok"]
