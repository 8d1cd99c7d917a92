"""One client against everyone else: floods of runs, paused runs holding slots, many sockets,
slow HTTP clients, large stored runs read at once; and stop / disconnect while paused.

Clients come from different loopback addresses (127.0.0.2, .3, ...): the server tells
clients apart by address. Each test checks what another client sees: its run is served, in its
turn, whatever the machine's speed (the seconds it waited are printed, never asserted).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from server.app import create_app
from server.sandbox.reaper import pids_of_uid
from server.sandbox.settings import MiB, SandboxSettings
from server.sandbox.slots import SlotPool
from server.settings import Settings
from server.trust.tokens import COOKIE
from tests import web
from tests.server.live import Client, assert_dense, owner_cookie, serve
from tests.server.sandbox_helpers import GENEROUS_CPU_S, GENEROUS_WALL_S
from tests.server.test_hostile_runs import GOOD, GOOD_OUT

ATTACKER, VICTIM, SLOW = "127.0.0.2", "127.0.0.3", "127.0.0.4"
# No run here ends by a clock it could meet on a slow machine: sleepers are stopped by the tests,
# which free slots on purpose. The contended-pause limit is short: one test is about it.
WALL = GENEROUS_WALL_S
CONTENDED_PAUSE = 2.0
SLEEPER = "import time\nprint('up')\ntime.sleep(1e6)\n"
PAUSING = """import torch
x = torch.ones(3, requires_grad=True)
y = (x * 2).exp().sum()
y.backward()
print(x.grad)
"""
PAUSING_OUT = "tensor([14.7781, 14.7781, 14.7781])\n"  # d/dx sum(exp(2x)) = 2 e^2 at x = 1
FLOOD = (  # (events that fit the protocol: the event-bytes cap is what ends the run)
    "import sys\nsink = sys.stdout.tr.sink\nbig = 'x' * (1 << 20)\n"
    "ev = {'type': 'tensor_values', 't': 0, 'tensor_id': 0, 'shape': [1], 'dtype': 'str',\n"
    "      'offset': 0, 'total': 1, 'values': [big], 'last': True}\n"
    "while True:\n    sink([ev])\n"
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("fair") / "runs.sqlite3"
    sandbox = SandboxSettings(
        wall_seconds=WALL,
        cpu_seconds=GENEROUS_CPU_S,
        pause_seconds=WALL,
        contended_pause_seconds=CONTENDED_PAUSE,
        max_event_bytes=32 * MiB,
        max_workers=2,
    )
    settings = Settings(
        db_path=db,
        sandbox=sandbox,
        rate_limit_burst=1000,
        disconnect_grace_s=5,
        max_connections_per_client=300,
    )
    application = create_app(settings)
    with serve(application) as base:
        yield base, application


async def connect_from(base: str, address: str, cookie: str | None = None) -> Client:
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else None
    ws = await websockets.connect(
        f"ws://{base}/ws", max_size=None, local_addr=(address, 0), additional_headers=headers
    )
    return Client(ws)


async def start(
    base: str, address: str, code: str, cookie: str | None = None, **options: Any
) -> Client:
    c = await connect_from(base, address, cookie)
    await c.send({"type": "run", "code": code, "options": options})
    return c


def _out(events: list[dict[str, Any]]) -> str:
    return "".join(e["text"] for e in events if e["type"] == "stdout")


async def victim_run(base: str, once_queued: Any = None) -> float:
    """Seconds from sending another client's run to its correct end; `once_queued` (a coroutine
    function) runs when the run says it waits in the queue."""
    t0 = time.monotonic()
    c = await start(base, VICTIM, GOOD)
    if once_queued is not None:
        await c.until("queued")
        await once_queued()
    finished = await c.until("run_finished", timeout=WALL + 60)
    await c.ws.close()
    assert (finished["status"], _out(c.events)) == ("ok", GOOD_OUT), c.events[-3:]
    return time.monotonic() - t0


async def stop_all(clients: list[Client]) -> None:
    for c in clients:
        await c.send({"type": "stop"})
        if not any(e["type"] == "run_finished" for e in c.events):
            await c.until("run_finished")
        await c.ws.close()


async def started_runs(clients: list[Client]) -> int:
    """How many of these clients' runs have started (printed 'up'), from what they were sent."""
    for c in clients:
        while True:
            try:
                await c.next_batch(timeout=0.05)
            except TimeoutError:
                break
    return sum(any(e["type"] == "stdout" for e in c.events) for c in clients)


def _no_leftovers(application: Any) -> None:
    runner = application.state.runner
    assert [p for uid in runner.slot_uids() for p in pids_of_uid(uid)] == []


def test_one_client_flooding_runs_does_not_starve_another(app: tuple[str, Any]) -> None:
    """12 sleeping runs from one address: FIFO gave a freed slot to the flood's next run, and
    another client waited for all of them."""
    base, application = app

    async def go() -> int:
        flood = [await start(base, ATTACKER, SLEEPER) for _ in range(12)]
        for c in flood[:2]:
            await c.until("stdout")  # both slots taken, ten queued
        # the victim's run sleeps too: it holds the slot it gets until stopped
        victim = await start(base, VICTIM, SLEEPER)
        await victim.until("queued")
        await flood[0].send({"type": "stop"})  # one slot freed
        await victim.until("stdout")  # the victim runs
        started = await started_runs(flood)
        await stop_all([victim, *flood])
        return started

    # the one freed slot went to the victim, not to the flood's third run
    started = asyncio.run(go())
    assert started == 2, f"{started} of the flood's runs started; the victim waited"
    _no_leftovers(application)


def test_paused_runs_yield_their_slots_when_another_client_waits(app: tuple[str, Any]) -> None:
    base, application = app

    async def go() -> tuple[float, list[str]]:
        paused = [await start(base, ATTACKER, PAUSING, pause_in_backward=True) for _ in range(2)]
        for c in paused:
            await c.until("paused")
        waited = await victim_run(base)
        for c in paused:  # one had to yield its slot; the other may stay paused
            await c.send({"type": "stop"})
            await c.until("run_finished")
            await c.ws.close()
        messages = [e["message"] for c in paused for e in c.events if e["type"] == "error"]
        return waited, messages

    waited, messages = asyncio.run(go())
    print(f"another client's run finished {waited:.1f} s after it was sent")
    assert f"paused for more than {CONTENDED_PAUSE:g} s while others waited" in messages
    _no_leftovers(application)


def test_a_paused_run_keeps_its_slot_while_nobody_waits(app: tuple[str, Any]) -> None:
    base, _ = app

    async def go() -> list[dict[str, Any]]:
        c = await start(base, ATTACKER, PAUSING, pause_in_backward=True)
        await c.until("paused")
        await asyncio.sleep(CONTENDED_PAUSE + 1.0)  # past the limit that applies only to others
        await c.send({"type": "continue"})
        await c.until("run_finished")
        await c.ws.close()
        return c.events

    events = asyncio.run(go())
    assert_dense(events)
    assert (events[-1]["status"], _out(events)) == ("ok", PAUSING_OUT)


def test_stop_while_paused_mid_backward(app: tuple[str, Any]) -> None:
    base, application = app

    async def go() -> tuple[str, str]:
        c = await start(base, ATTACKER, PAUSING, pause_in_backward=True)
        await c.until("paused")
        await c.send({"type": "step"})
        await c.until("paused")  # now between two nodes of the backward pass
        await c.send({"type": "stop"})
        finished = await c.until("run_finished", timeout=120)  # a bound for a hang, not a speed
        await c.ws.close()
        run_id = finished["run_id"]
        stored = web.get(f"http://{base}/api/runs/{run_id}").json()
        return finished["status"], stored["status"]

    assert asyncio.run(go()) == ("killed", "killed")
    _no_leftovers(application)
    asyncio.run(victim_run(base))


def test_disconnect_while_paused_then_resume_and_finish(app: tuple[str, Any]) -> None:
    base, _ = app

    cookie = owner_cookie(base)  # the browser's: only the run's owner may continue it

    async def go() -> list[dict[str, Any]]:
        c = await start(base, ATTACKER, PAUSING, cookie, pause_in_backward=True)
        await c.until("paused")
        await c.ws.close()  # the run waits out the reconnect grace period
        await asyncio.sleep(1.0)
        again = await connect_from(base, ATTACKER, cookie)
        last = c.events[-1]["seq"]
        await again.send({"type": "resume", "run_id": c.events[0]["run_id"], "after_seq": last})
        await again.send({"type": "continue"})
        await again.until("run_finished")
        await again.ws.close()
        return c.events + again.events

    events = asyncio.run(go())
    assert_dense(events)  # exactly the missing events, none twice
    assert (events[-1]["status"], _out(events)) == ("ok", PAUSING_OUT)


def test_finished_runs_leave_server_memory_once_stored(app: tuple[str, Any]) -> None:
    """A finished run's log used to stay in memory for 60 s: run after run of large logs
    could fill the server's memory. Stored, it is served from the store."""
    base, application = app

    async def go() -> list[dict[str, Any]]:
        c = await start(base, ATTACKER, "print('kept')")
        await c.until("run_finished")
        await c.ws.close()
        return c.events

    events = asyncio.run(go())
    run_id = events[0]["run_id"]
    for _ in range(100):
        if run_id not in application.state.manager.live:
            break
        time.sleep(0.02)
    assert run_id not in application.state.manager.live
    body = web.get(f"http://{base}/api/runs/{run_id}").json()
    assert body["events"] == events


def _rss_kib() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


def test_a_large_stored_run_read_by_many_clients_at_once(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """16 clients reading a 32 MB run at once: each read used to load the whole run and copy
    it again into the response (16 x 64 MB); bodies are now streamed a page at a time."""
    db = tmp_path_factory.mktemp("large") / "runs.sqlite3"
    # clocks far away: the flood ends by the event-bytes cap, never by a clock
    sandbox = SandboxSettings(wall_seconds=120, cpu_seconds=60, max_event_bytes=32 * MiB)
    # one client's 16 reads at once (beyond the default per-client bound on reads at once)
    settings = Settings(db_path=db, sandbox=sandbox, max_http_reads_per_client=16)
    with serve(create_app(settings)) as base:
        _read_by_many(base)


def _read_by_many(base: str) -> None:
    async def flood() -> str:
        c = await start(base, ATTACKER, FLOOD)
        finished = await c.until("run_finished", timeout=180)
        await c.ws.close()
        assert finished["status"] == "limit"
        return str(finished["run_id"])

    run_id = asyncio.run(flood())
    baseline, peak, done = _rss_kib(), [0], threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _rss_kib())
            time.sleep(0.01)

    async def read_all() -> list[int]:
        async def one(h: httpx.AsyncClient) -> int:
            """Bytes of the events array: the head before it says what the server knows of
            the run at that moment (just finished: its live head; once stored: more fields)."""
            size, head = 0, -1
            async with h.stream("GET", f"http://{base}/api/runs/{run_id}") as response:
                async for part in response.aiter_raw():
                    if head < 0:
                        at = part.find(b'"events":')
                        head = size + at if at >= 0 else -1
                    size += len(part)
            assert head >= 0
            return size - head

        async with httpx.AsyncClient(timeout=120) as h:
            return list(await asyncio.gather(*(one(h) for _ in range(16))))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        sizes = asyncio.run(read_all())
    finally:
        done.set()
        watcher.join()
    grown = (peak[0] - baseline) / 1024
    print(f"16 concurrent reads of a {sizes[0] / MiB:.0f} MiB run: server grew {grown:.0f} MiB")
    assert len(set(sizes)) == 1 and sizes[0] > 30 * MiB
    assert grown < 256


def test_connections_per_client_are_capped_and_others_still_served(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    db = tmp_path_factory.mktemp("conns") / "runs.sqlite3"
    settings = Settings(db_path=db, max_connections_per_client=20)

    async def go(base: str) -> None:
        held = [await connect_from(base, ATTACKER) for _ in range(20)]
        extra = await connect_from(base, ATTACKER)
        [refusal] = await extra.next_batch(10)
        assert refusal["message"].startswith("too_many_connections")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(extra.ws.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        await victim_run(base)  # another address is not affected
        await held.pop().ws.close()

        # the server sees the close a moment later (later still on a loaded machine): wait for
        # it rather than for 5 s, after which the next connection was refused
        def held_now() -> int:
            return int(application.state.limits.connections.held(f"addr:{ATTACKER}"))

        deadline = time.monotonic() + 120
        while held_now() >= 20 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        assert held_now() < 20, "the server never saw the closed connection go"
        again = await start(base, ATTACKER, "print(5)")  # a freed place can be taken again
        assert (await again.until("run_finished"))["status"] == "ok"
        for c in [*held, again]:
            await c.ws.close()

    application = create_app(settings)
    with serve(application) as base:
        asyncio.run(go(base))


def test_many_sockets_and_slow_http_clients_do_not_block_others(app: tuple[str, Any]) -> None:
    """250 open websockets from one address and 250 connections that send half an HTTP
    request (slowloris; uvicorn has no header timeout, a proxy in front should add one)."""
    base, _ = app
    host, port = base.split(":")

    async def go() -> tuple[float, float]:
        sockets = [await connect_from(base, ATTACKER) for _ in range(250)]
        slow = []
        for _ in range(250):
            s = socket.create_connection((host, int(port)), source_address=(SLOW, 0))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            slow.append(s)
        try:
            t0 = time.monotonic()
            async with web.async_client() as h:
                assert (await h.get(f"http://{base}/healthz")).status_code == 200
            health = time.monotonic() - t0
            return health, await victim_run(base)
        finally:
            for s in slow:
                s.close()
            for c in sockets:
                await c.ws.close()

    # answered at all: the idle connections hold no worker, lock or event-loop turn
    health, waited = asyncio.run(go())
    print(f"under 500 idle connections: /healthz {health * 1000:.0f} ms, a run {waited:.2f} s")


def test_slot_pool_serves_owners_in_turn() -> None:
    """A slot freed goes to the owner holding the fewest slots with the fewest runs ahead."""

    async def scenario() -> list[str]:
        pool = SlotPool(1, max_queue=10)
        served: list[str] = []
        slot = await pool.acquire(lambda p: None, "a")
        names = ["a1", "a2", "a3", "b1", "b2", "c1"]
        futures = [pool.reserve(lambda p: None, name[0]) for name in names]
        for _ in names:
            pool.release(slot)
            i = next(i for i, f in enumerate(futures) if f.done() and names[i] not in served)
            served.append(names[i])
            slot = futures[i].result()
        return served

    # "a" holds the slot: b and c go first; then one run of each owner per round
    assert asyncio.run(scenario()) == ["b1", "c1", "a1", "b2", "a2", "a3"]


def test_a_full_queue_makes_room_for_another_clients_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """One client filling the queue used to get every other client refused ('queue_full')."""
    db = tmp_path_factory.mktemp("queue") / "runs.sqlite3"
    sandbox = SandboxSettings(
        wall_seconds=WALL, cpu_seconds=GENEROUS_CPU_S, max_workers=1, max_queue=3
    )
    settings = Settings(db_path=db, sandbox=sandbox, rate_limit_burst=1000)

    async def go(base: str) -> tuple[float, list[str]]:
        flood = [await start(base, ATTACKER, SLEEPER) for _ in range(4)]  # 1 runs, 3 wait
        await flood[0].until("stdout")

        async def free_the_slot() -> None:  # the sleepers never end by themselves
            for c in flood:
                await c.send({"type": "stop"})

        waited = await victim_run(base, once_queued=free_the_slot)
        await stop_all(flood)
        return waited, [e["message"] for c in flood for e in c.events if e["type"] == "error"]

    with serve(create_app(settings)) as base:
        waited, messages = asyncio.run(go(base))
    print(f"another client's run finished {waited:.1f} s after it was sent (queue full)")
    assert "the queue is full: this run made room for another client's run" in messages
