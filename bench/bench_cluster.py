"""100 concurrent sessions through app replicas, with one runner pool and with two: runs/s,
p50 and p99 from `run` to `run_finished`, and how many were lost (no end, or not ok), and how
the runs spread over the pools. A figure for docs, not a test: on one 2-core machine a second
pool adds slots, not cores (see docs/scaling.md).

    .venv/bin/python bench/bench_cluster.py [--sessions 100] [--slots 2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from deploy.cluster import Cluster  # noqa: E402
from deploy.replicas_check import SEED, Socket, kind, owner_cookie  # noqa: E402


async def session(base: str, cookie: str, code: str) -> tuple[float, str]:
    """One client: run `code`, wait for its end; (seconds, status)."""
    sock = await Socket.open(base, cookie)
    try:
        t0 = time.monotonic()
        await sock.send({"type": "run", "code": code})
        end = await sock.until(kind("run_finished"), "run_finished", 3600.0)
        status = str(end["status"])
        if status != "ok":  # with the run's own error, for the report
            errors = [e.get("message") for e in sock.events if e.get("type") == "error"]
            status = f"{status}: {errors}"
        return time.monotonic() - t0, status
    finally:
        await sock.close()


def claims(logs: Path) -> dict[str, int]:
    """Runs each pool claimed, from its log's last line."""
    out: dict[str, int] = {}
    for log in sorted(logs.glob("pool*.log")):
        found = re.findall(r"claimed (\d+) runs", log.read_text())
        out[log.stem] = int(found[-1]) if found else -1
    return out


def measure(pools: int, sessions: int, slots: int) -> dict[str, Any]:
    logs = Path(tempfile.mkdtemp(prefix=f"bench-cluster-{pools}-"))
    settings = {"rate_limit_burst": "100000", "rate_limit_per_minute": "100000"}
    with Cluster(logs=logs, disconnect_grace_s="600", **settings) as cluster:
        replicas = [cluster.replica("replica-a"), cluster.replica("replica-b")]
        for i in range(pools):
            cluster.runner(f"pool{i + 1}", slots=slots)
        code = SEED.read_text()

        async def everyone() -> list[tuple[float, str] | BaseException]:
            cookies = [owner_cookie(base) for base in replicas]
            jobs = [session(replicas[i % 2], cookies[i % 2], code) for i in range(sessions)]
            return await asyncio.gather(*jobs, return_exceptions=True)

        t0 = time.monotonic()
        results = asyncio.run(everyone())
        wall = time.monotonic() - t0
        for i in range(pools):
            cluster.stop(f"pool{i + 1}")
    done = [r for r in results if isinstance(r, tuple)]
    for r in results:  # what a lost run was: no end (the client's error), or its status
        if not isinstance(r, tuple) or r[1] != "ok":
            print(f"  lost ({pools} pool(s)): {r!r}", file=sys.stderr)
    ok = sorted(t for t, status in done if status == "ok")
    q = statistics.quantiles(ok, n=100) if len(ok) > 1 else [float("nan")] * 99
    return {
        "pools": pools,
        "slots_each": slots,
        "sessions": sessions,
        "ok": len(ok),
        "lost": sessions - len(ok),
        "runs_per_s": len(ok) / wall,
        "p50_s": q[49],
        "p99_s": q[98],
        "claimed": claims(logs),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--slots", type=int, default=2)
    args = parser.parse_args()
    print(f"load before: {os.getloadavg()}")
    rows = []
    for pools in (1, 2):
        row = measure(pools, args.sessions, args.slots)
        rows.append(row)
        print(
            f"{row['pools']} pool(s) x {row['slots_each']} slots: {row['sessions']} sessions,"
            f" {row['ok']} ok, {row['lost']} lost, {row['runs_per_s']:.2f} runs/s,"
            f" p50 {row['p50_s']:.1f} s, p99 {row['p99_s']:.1f} s, claimed {row['claimed']},"
            f" load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    print(f"two pools / one: {rows[1]['runs_per_s'] / rows[0]['runs_per_s']:.2f}x runs/s")
    print(f"load after: {os.getloadavg()}")
    return 0 if all(r["lost"] == 0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
