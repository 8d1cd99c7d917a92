"""Read the test suite's timeline (tests/conftest.py writes test-artifacts/timeline/): each
worker's busy time and span, the files that took longest (summed over their tests, in wall time
and in CPU time of the worker's process tree), and the longest tests, so a slow `make test`
shows its critical path and where its CPU goes.

    .venv/bin/python tools/suite_timeline.py [test-artifacts/timeline]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "test-artifacts/timeline")
    rows = []
    for path in sorted(root.glob("*.jsonl")):
        for line in path.read_text().splitlines():
            nodeid, start, end, *cpu = json.loads(line)
            rows.append((path.stem, nodeid, start, end, cpu[0] if cpu else 0.0))
    if not rows:
        sys.exit(f"no timeline under {root}")
    t0 = min(r[2] for r in rows)
    t1 = max(r[3] for r in rows)
    print(f"{len(rows)} tests over {t1 - t0:.0f} s")
    by_worker: dict[str, list[tuple[float, float]]] = defaultdict(list)
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for worker, nodeid, start, end, cpu in rows:
        by_worker[worker].append((start, end))
        by_file[nodeid.split("::")[0]][0] += end - start
        by_file[nodeid.split("::")[0]][1] += cpu
    for worker, spans in sorted(by_worker.items()):
        busy = sum(e - s for s, e in spans)
        last = max(e for _, e in spans) - t0
        print(f"  {worker}: busy {busy:.0f} s, last test ended at {last:.0f} s")
    print(f"CPU of the workers' process trees: {sum(r[4] for r in rows):.0f} s")
    for label, key in (("wall", 0), ("CPU", 1)):
        print(f"files by summed test {label} time (wall s, CPU s):")
        for name, (wall, cpu) in sorted(by_file.items(), key=lambda kv: -kv[1][key])[:25]:
            print(f"  {wall:7.1f} {cpu:7.1f}  {name}")
    print("longest tests (wall s, CPU s):")
    for worker, nodeid, start, end, cpu in sorted(rows, key=lambda r: r[2] - r[3])[:20]:
        print(f"  {end - start:7.1f} {cpu:7.1f}  {nodeid} ({worker}, from {start - t0:.0f} s)")


if __name__ == "__main__":
    main()
