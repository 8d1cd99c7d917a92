"""The whole path at real sizes: the real server, Debian's Chromium, Run clicked in the page.

Prints, as ratios measured in one run (issue 15's goals):
- Live: Run -> finished and fully drawn (the page's own state: every event applied, every
  vertex placed, a frame drawn after the run's last event) on a 20k-op chain
  (`y = (y * 1.0001).tanh()` 20,000 times, then backward: ~160k events), against
  `backscope trace` of the same snippet; and the floor under it: a bare websocket in the same
  page that runs the snippet and only parses the batches.
- Growth: the same for 5k ops; 20k/5k.
- The longest main-thread task while streaming (a `longtask` PerformanceObserver) and the
  latency of pan / select / step done during a stream (scheduled time -> next frame).
- Replay: the stored 20k run reopened by its share link, in events/s (from navigation to
  drawn), and its floors: the page's read of the stored log alone (HTTP frames, parsed), and
  the same events over a bare websocket.
- CPU seconds of the page (every Chromium process: renderer, layout worker, GPU, network; read
  from /proc, less sensitive to the machine's load than wall time) against `backscope
  trace`'s own CPU.
- With --profile: a CPU profile of the live run and the replay (Chromium's sampling profiler
  over CDP, on an unminified build), its top self-time entries.

After an untimed warm-up (one small run), `--repeat` rounds (3) each measure `backscope
trace` and the page back to back, so every ratio comes from one round; the round with the
median Live/trace ratio is printed in full and every round's ratios are listed with their
median (the spread is the shared machine's noise, not hidden by the median).

Needs `make frontend` and Playwright's Python package (no browser download: /usr/bin/chromium).

    .venv/bin/python bench/bench_e2e.py [--profile] [--ops 20000] [--small 5000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, live_server, press_run, set_code  # noqa: E402

# Registered before the page's own scripts: every long task, and every frame painted.
PROBES = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
"""

DRAWN = """() => {
  const a = window.__backscope && window.__backscope.app;
  if (!a || !a.metrics.firstFullFrameAt) return false;
  const s = a.log.stateAt(a.log.length - 1).status;
  return s !== "running" && s !== "paused" && s !== "idle";
}"""

# A bare websocket in the page: the server's stream parsed and counted, nothing else.
BARE = """async (code) => {
  const t0 = performance.now();
  const ws = new WebSocket(`ws://${location.host}/ws`);
  let n = 0;
  return await new Promise((done) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: "run", code, options: { pause_in_backward: false, breakpoints: [] } }));
    ws.onmessage = (m) => {
      const b = JSON.parse(m.data);
      const arr = Array.isArray(b) ? b : [b];
      n += arr.length;
      if (arr.some((e) => e.type === "run_finished")) { ws.close(); done({ ms: performance.now() - t0, events: n }); }
    };
  });
}"""

# Pan, select and step while a run streams in: each action is scheduled every `gap` ms and its
# latency is the time from when it was due to the frame after it was handled (a busy main
# thread delays both). Runs until the page says the run is drawn.
INTERACT = """async (gap) => {
  const app = window.__backscope.app;
  const cv = app.canvas.el;
  const r = cv.getBoundingClientRect();
  const lat = { pan: [], select: [], step: [] };
  const kinds = ["pan", "select", "step"];
  let i = 0;
  const finished = () => {
    const s = app.log.stateAt(app.log.length - 1).status;
    return app.metrics.firstFullFrameAt > 0 && s !== "running" && s !== "paused" && s !== "idle";
  };
  const act = (kind) => {
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (kind === "pan") {
      const opts = { bubbles: true, clientX: x, clientY: y, pointerId: 1, button: 0 };
      cv.dispatchEvent(new PointerEvent("pointerdown", opts));
      cv.dispatchEvent(new PointerEvent("pointermove", { ...opts, clientX: x + 30, clientY: y + 10 }));
      cv.dispatchEvent(new PointerEvent("pointerup", { ...opts, clientX: x + 30, clientY: y + 10 }));
    } else if (kind === "select") {
      const item = document.querySelector("#node-list [data-node-id]");
      if (item) item.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    } else {
      window.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
    }
  };
  while (!finished()) {
    const due = performance.now() + gap;
    await new Promise((res) => setTimeout(res, gap));
    const kind = kinds[i++ % kinds.length];
    act(kind);
    await new Promise((res) => requestAnimationFrame(() => res()));
    lat[kind].push(performance.now() - due);
  }
  return lat;
}"""


def chain(n: int) -> str:
    return (
        "import torch\n\n"
        "x = torch.tensor(0.5, requires_grad=True)\n"
        "y = x\n"
        f"for _ in range({n}):\n"
        "    y = (y * 1.0001).tanh()\n"
        "y.backward()\n"
    )


def trace_seconds(code: str) -> tuple[float, float]:
    """Wall and CPU seconds of `backscope trace` of the snippet (events written to a file)."""
    exe = Path(sys.executable).with_name("backscope")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "snippet.py"
        src.write_text(code)
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(
            [str(exe), "trace", str(src), "-o", str(Path(tmp) / "out.jsonl")], check=True
        )
        wall = time.perf_counter() - t0
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


TICK = os.sysconf("SC_CLK_TCK")


def page_cpu_seconds() -> float:
    """CPU seconds used so far by this bench's Chromium, every process of it (renderer, layout
    worker, GPU, network), read from /proc."""
    return sum(page_cpu_threads().values())


def chromium_pids() -> list[int]:
    """This bench's Chromium processes (descendants of this process named chrom*)."""
    parent: dict[int, int] = {}
    names: dict[int, str] = {}
    cpu: dict[int, float] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        pid = int(d)
        names[pid] = stat[stat.index("(") + 1 : stat.rindex(")")]
        f = stat.rsplit(")", 1)[1].split()
        parent[pid] = int(f[1])
        cpu[pid] = sum(int(x) for x in f[11:15]) / TICK  # own and reaped children's
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, up in parent.items():
            if up in mine and pid not in mine:
                mine.add(pid)
                grew = True
    return [p for p in mine if "chrom" in names[p]]


def page_cpu_threads() -> dict[str, float]:
    """CPU seconds so far of each kind of thread of this bench's Chromium: `type/thread name`
    ("renderer/CrRendererMain", "renderer/DedicatedWorker thread", "gpu-process/...")."""
    out: dict[str, float] = defaultdict(float)
    for pid in chromium_pids():
        try:
            # Chromium rewrites its command line: the arguments may be one space-joined string
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").split()
        except OSError:
            continue
        kind = next((a[7:].decode() for a in cmd if a.startswith(b"--type=")), "browser")
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
            except OSError:
                continue
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            f = stat.rsplit(")", 1)[1].split()
            out[f"{kind}/{name}"] += (int(f[11]) + int(f[12])) / TICK
    return out


def cpu_delta(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    """Per-thread CPU between two readings, largest first (threads under 0.05 s left out)."""
    d = {k: b.get(k, 0.0) - a.get(k, 0.0) for k in b}
    return dict(sorted(((k, v) for k, v in d.items() if v >= 0.05), key=lambda kv: -kv[1]))


def live(page: Any, code: str, interact: bool = False) -> dict[str, Any]:
    """Run the snippet from the page; times from the press of Run, read from the page."""
    page.goto("/")
    page.wait_for_function("() => !!window.__backscope")
    set_code(page, code)
    page.evaluate("() => { window.__longtasks.length = 0; }")
    c0 = page_cpu_threads()
    t0: float = page.evaluate("performance.now()")
    press_run(page)
    lat = page.evaluate(INTERACT, 250) if interact else None
    page.wait_for_function(DRAWN, timeout=300_000, polling=100)
    c1 = page_cpu_threads()
    m = page.evaluate("""() => {
      const a = window.__backscope.app;
      const head = a.log.stateAt(a.log.length - 1);
      return { drawn: a.metrics.firstFullFrameAt, last: a.metrics.lastEventAt, events: a.log.length,
               runId: head.runId, status: head.status, vertices: a.pos.size,
               tasks: window.__longtasks };
    }""")
    tasks = [d for (start, d) in m["tasks"] if t0 <= start <= m["drawn"]]
    if m["status"] != "ok":
        raise SystemExit(f"the run ended {m['status']} after {m['events']} events (a limit?)")
    return {
        "s": (m["drawn"] - t0) / 1000,
        "last_event_s": (m["last"] - t0) / 1000,
        "events": m["events"],
        "vertices": m["vertices"],
        "run_id": m["runId"],
        "longest_task_ms": max(tasks, default=0.0),
        "long_tasks": len(tasks),
        "latency": lat,
        "cpu": sum(c1.values()) - sum(c0.values()),
        "threads": cpu_delta(c0, c1),
    }


def bare(page: Any, code: str) -> dict[str, float]:
    page.goto("/")
    r: dict[str, float] = page.evaluate(BARE, code)
    return {"s": r["ms"] / 1000, "events": r["events"]}


BARE_REPLAY = """async (runId) => {
  const t0 = performance.now();
  const ws = new WebSocket(`ws://${location.host}/ws`);
  let n = 0;
  return await new Promise((done) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: "resume", run_id: runId, after_seq: -1 }));
    ws.onmessage = (m) => {
      const b = JSON.parse(m.data);
      const arr = Array.isArray(b) ? b : [b];
      n += arr.length;
      if (arr.some((e) => e.type === "run_finished")) { ws.close(); done({ ms: performance.now() - t0, events: n }); }
    };
  });
}"""


# The stored log as the page reads it on a share link (GET /api/runs/ID/log, length-prefixed
# frames), each frame parsed and counted, nothing else.
BARE_LOG = """async (runId) => {
  const t0 = performance.now();
  const r = await fetch(`/api/runs/${runId}/log`);
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let buf = new Uint8Array(0), n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const joined = new Uint8Array(buf.length + value.length);
    joined.set(buf); joined.set(value, buf.length); buf = joined;
    for (;;) {
      const nl = buf.indexOf(10);
      if (nl < 0) break;
      const len = Number(dec.decode(buf.subarray(0, nl)));
      if (buf.length < nl + 1 + len) break;
      n += JSON.parse(dec.decode(buf.subarray(nl + 1, nl + 1 + len))).length;
      buf = buf.slice(nl + 1 + len);
    }
  }
  return { ms: performance.now() - t0, events: n };
}"""


def bare_log(page: Any, run_id: str) -> dict[str, float]:
    page.goto("/")
    r: dict[str, float] = page.evaluate(BARE_LOG, run_id)
    return {"s": r["ms"] / 1000, "events": r["events"], "rate": r["events"] / (r["ms"] / 1000)}


def fold_floor(page: Any, run_id: str) -> dict[str, float]:
    """The stored log read as a share link reads it and folded by the run log alone (no
    layout, drawing or panels): best of two."""
    best: dict[str, float] = {}
    for _ in range(2):
        page.goto("/")
        page.wait_for_function("() => !!window.__backscope")
        r: dict[str, float] = page.evaluate("id => window.__backscope.bench.fold(id)", run_id)
        if not best or r["ms"] < best["ms"]:
            best = r
    return best


def bare_replay(page: Any, run_id: str) -> dict[str, float]:
    page.goto("/")
    r: dict[str, float] = page.evaluate(BARE_REPLAY, run_id)
    return {"s": r["ms"] / 1000, "events": r["events"], "rate": r["events"] / (r["ms"] / 1000)}


def replay(page: Any, run_id: str) -> dict[str, Any]:
    """Open the run's share link; time from navigation to finished and fully drawn."""
    page.goto("/")
    c0 = page_cpu_threads()
    page.goto(f"/?run={run_id}")
    page.wait_for_function(DRAWN, timeout=300_000, polling=100)
    c1 = page_cpu_threads()
    m = page.evaluate("""() => {
      const a = window.__backscope.app;
      return { drawn: a.metrics.firstFullFrameAt, last: a.metrics.lastEventAt, events: a.log.length,
               tasks: window.__longtasks };
    }""")
    s = m["drawn"] / 1000
    return {
        "s": s,
        "last_event_s": m["last"] / 1000,
        "events": m["events"],
        "rate": m["events"] / s,
        "longest_task_ms": max((d for _, d in m["tasks"]), default=0.0),
        "cpu": sum(c1.values()) - sum(c0.values()),
        "threads": cpu_delta(c0, c1),
    }


# -- the CPU profile -------------------------------------------------------------------------


def unminified_build(out: Path) -> Path:
    """The frontend built without minification (function names as written), into `out`."""
    vite = ROOT / "frontend" / "node_modules" / ".bin" / "vite"
    subprocess.run(
        [str(vite), "build", "--minify", "false", "--outDir", str(out), "--emptyOutDir"],
        cwd=ROOT / "frontend",
        check=True,
        capture_output=True,
    )
    return out


def profiled(page: Any, action: Any) -> dict[str, Any]:
    """Run `action()` under Chromium's sampling profiler; the profile (CDP Profiler.Profile)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 500})
    cdp.send("Profiler.start")
    try:
        action()
    finally:
        prof: dict[str, Any] = cdp.send("Profiler.stop")["profile"]
        cdp.detach()
    return prof


def self_times(prof: dict[str, Any]) -> list[tuple[str, float]]:
    """Self time per function (name and source place), as fractions of the profile."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    per: dict[str, float] = defaultdict(float)
    total = 0.0
    for node_id, dt in zip(prof["samples"], prof["timeDeltas"], strict=True):
        f = nodes[node_id]["callFrame"]
        name = f["functionName"] or "(anonymous)"
        url = f.get("url", "")
        where = f"{Path(url).name}:{f['lineNumber'] + 1}" if url else ""
        per[f"{name} {where}".strip()] += dt
        total += dt
    ranked = sorted(per.items(), key=lambda kv: -kv[1])
    return [(k, v / total) for k, v in ranked if total]


def total_times(prof: dict[str, Any]) -> list[tuple[str, float]]:
    """Time in each function and what it called (each sample counted once per function on its
    stack), as fractions of the profile."""
    nodes = {n["id"]: n for n in prof["nodes"]}
    parent = {c: n["id"] for n in prof["nodes"] for c in n.get("children", [])}
    per: dict[str, float] = defaultdict(float)
    total = 0.0
    for node_id, dt in zip(prof["samples"], prof["timeDeltas"], strict=True):
        total += dt
        seen: set[str] = set()
        at: int | None = node_id
        while at is not None:
            f = nodes[at]["callFrame"]
            url = f.get("url", "")
            name = f"{f['functionName'] or '(anonymous)'} {Path(url).name}:{f['lineNumber'] + 1}"
            if url and name not in seen:
                seen.add(name)
                per[name] += dt
            at = parent.get(at)
    ranked = sorted(per.items(), key=lambda kv: -kv[1])
    return [(k, v / total) for k, v in ranked if total]


def print_profile(
    title: str, prof: dict[str, Any], top: int = 25, save: Path | None = None
) -> None:
    span = (prof["endTime"] - prof["startTime"]) / 1e6
    if save is not None:
        save.write_text(json.dumps(prof))
        print(f"\n(profile saved to {save}: open it in Chromium's DevTools, Performance)")
    print(f"\n{title}: CPU profile over {span:.1f} s, top self time")
    for name, share in self_times(prof)[:top]:
        print(f"  {share * 100:5.1f} %  {name}")
    print(f"{title}: top total time (the page's own functions, with what they call)")
    for name, share in total_times(prof)[:top]:
        print(f"  {share * 100:5.1f} %  {name}")


# -- main ------------------------------------------------------------------------------------


@contextmanager
def browser_page(url: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            ctx = b.new_context(viewport={"width": 1600, "height": 900}, base_url=url)
            ctx.add_init_script(PROBES)
            yield ctx.new_page()
        finally:
            b.close()


def one_round(page: Any, big: str, small: str) -> dict[str, Any]:
    """`backscope trace` and the page's live run of both snippets, and the big run's replay."""
    trace_big, trace_cpu = trace_seconds(big)
    run_big = live(page, big)
    trace_small, _ = trace_seconds(small)
    run_small = live(page, small)
    rep = replay(page, run_big["run_id"])
    return {
        "trace_big": trace_big,
        "trace_cpu": trace_cpu,
        "trace_small": trace_small,
        "run_big": run_big,
        "run_small": run_small,
        "rep": rep,
    }


def print_rounds(rounds: list[dict[str, Any]]) -> None:
    """Each round's figures, and their median (the figures above are the median round's)."""

    def line(name: str, xs: list[float], fmt: str) -> None:
        med = sorted(xs)[len(xs) // 2]
        print(f"  {name:28s} " + "  ".join(format(x, fmt) for x in xs) + f"   median {med:{fmt}}")

    print(f"\n{len(rounds)} rounds (each ratio from one round):")
    line("Live / trace", [r["run_big"]["s"] / r["trace_big"] for r in rounds], ".2f")
    line("growth 20k/5k", [r["run_big"]["s"] / r["run_small"]["s"] for r in rounds], ".2f")
    line("page CPU / trace CPU", [r["run_big"]["cpu"] / r["trace_cpu"] for r in rounds], ".2f")
    line(
        "longest task (ms)",
        [max(r["run_big"]["longest_task_ms"], r["run_small"]["longest_task_ms"]) for r in rounds],
        ".0f",
    )
    line("replay (k events/s)", [r["rep"]["rate"] / 1000 for r in rounds], ".1f")
    line("replay page CPU (s)", [r["rep"]["cpu"] for r in rounds], ".2f")


def print_threads(threads: dict[str, float]) -> None:
    print("    by thread: " + ", ".join(f"{k} {v:.2f}" for k, v in list(threads.items())[:8]))


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


# The bench's runs must not meet the sandbox's clocks on a loaded machine (its figures are ratios).
GENEROUS = {"BACKSCOPE_WALL_SECONDS": "600", "BACKSCOPE_CPU_SECONDS": "300"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ops", type=int, default=20_000)
    ap.add_argument("--small", type=int, default=5_000)
    ap.add_argument("--profile", action="store_true", help="also profile (unminified build)")
    ap.add_argument("--no-interact", action="store_true", help="skip the pan/select/step run")
    ap.add_argument("--profile-dir", type=Path, help="with --profile: save the profiles there")
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="rounds of (trace, live 20k, live 5k, replay); the median round is shown in full",
    )
    args = ap.parse_args()
    big, small = chain(args.ops), chain(args.small)
    load0 = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        with live_server(Path(tmp), env=GENEROUS) as url, browser_page(url) as page:
            # warm-up, untimed: the server's first sandbox run, the page's compiled code
            trace_seconds(small)
            live(page, small)
            floor = bare(page, big)
            rounds = [one_round(page, big, small) for _ in range(max(1, args.repeat))]
            # the round with the median Live/trace ratio is shown in full; every round's ratios
            # are listed beside it (the spread is the noise of a shared machine)
            ordered = sorted(rounds, key=lambda r: r["run_big"]["s"] / r["trace_big"])
            mid = ordered[len(ordered) // 2]
            trace_big, trace_cpu, trace_small = (
                mid["trace_big"],
                mid["trace_cpu"],
                mid["trace_small"],
            )
            run_big, run_small, rep = mid["run_big"], mid["run_small"], mid["rep"]
            rep_floor = bare_replay(page, run_big["run_id"])
            log_floor = bare_log(page, run_big["run_id"])
            fold = fold_floor(page, run_big["run_id"])
            inter = None if args.no_interact else live(page, big, interact=True)
        load1 = os.getloadavg()
        print(f"bench_e2e: {args.ops}-op chain (and {args.small}), Chromium headless 1600x900")
        print(
            f"load average before {load0[0]:.2f} {load0[1]:.2f}, after {load1[0]:.2f} {load1[1]:.2f}"
        )
        ev = run_big["events"]
        print(f"\nlive {args.ops} ops: {ev:,} events, {run_big['vertices']:,} vertices placed")
        print(f"  backscope trace                       {trace_big:7.2f} s")
        print(
            f"  bare websocket in the page (floor)    {floor['s']:7.2f} s  ({floor['events']:,} events)"
        )
        print(f"  page: last event arrived              {run_big['last_event_s']:7.2f} s")
        print(
            f"  page: finished and fully drawn        {run_big['s']:7.2f} s  ({ev / run_big['s']:,.0f} events/s)"
        )
        r_live = run_big["s"] / trace_big
        r_floor = floor["s"] / trace_big
        print(f"  Live / trace   = {r_live:5.2f}x  (target <= 1.5x) {verdict(r_live <= 1.5)}")
        print(f"  floor / trace  = {r_floor:5.2f}x  (the server and websocket alone)")
        print(f"  Live / floor   = {run_big['s'] / floor['s']:5.2f}x")
        cpu = run_big["cpu"]
        print(
            f"  CPU: page (all Chromium processes) {cpu:.2f} s; `backscope trace` alone"
            f" {trace_cpu:.2f} s"
        )
        print(
            f"  page CPU / trace CPU = {cpu / trace_cpu:5.2f}x  (on 2 shared cores the"
            " page's CPU and the worker's compete for the same time)"
        )
        print_threads(run_big["threads"])
        growth = run_big["s"] / run_small["s"]
        print(f"\ngrowth: {args.small} ops {run_small['s']:.2f} s (trace {trace_small:.2f} s)")
        print(
            f"  {args.ops // 1000}k/{args.small // 1000}k = {growth:5.2f}x  (target <= 4.5x) {verdict(growth <= 4.5)}"
        )
        print(
            f"  trace {args.ops // 1000}k/{args.small // 1000}k = {trace_big / trace_small:5.2f}x"
        )
        lt = max(run_big["longest_task_ms"], run_small["longest_task_ms"])
        n_lt = run_big["long_tasks"]
        print(
            f"\nlongest main-thread task while streaming: {lt:.0f} ms ({n_lt} tasks over 50 ms in the {args.ops // 1000}k run)"
        )
        print(f"  (target <= 100 ms) {verdict(lt <= 100)}")
        if inter is not None:
            print("\nlatency during a stream (due -> next frame), max / median:")
            for kind, xs in (inter["latency"] or {}).items():
                if xs:
                    xs = sorted(xs)
                    print(
                        f"  {kind:6s} {xs[-1]:6.0f} ms / {xs[len(xs) // 2]:4.0f} ms  ({len(xs)} tries)"
                    )
            print(f"  longest task in that run: {inter['longest_task_ms']:.0f} ms")
        print(
            f"\nreplay by share link: {rep['events']:,} events in {rep['s']:.2f} s (last event {rep['last_event_s']:.2f} s)"
        )
        print(
            f"  {rep['rate']:,.0f} events/s  (target >= 100,000) {verdict(rep['rate'] >= 100_000)}"
        )
        print(
            f"  floor: the page's read of the log (HTTP frames, parsed) {log_floor['rate']:,.0f} events/s ({log_floor['s']:.2f} s)"
        )
        print(
            f"  floor: that read folded by the run log alone (no layout, drawing, panels)"
            f" {fold['eventsPerSec']:,.0f} events/s ({fold['ms'] / 1000:.2f} s, of which the"
            f" fold {fold['foldMs'] / 1000:.2f} s)"
        )
        print(
            f"  (the same run over a bare websocket in the page: {rep_floor['rate']:,.0f} events/s, {rep_floor['s']:.2f} s)"
        )
        print(f"  longest task during replay: {rep['longest_task_ms']:.0f} ms")
        print(f"  CPU: page (all Chromium processes) {rep['cpu']:.2f} s")
        print_threads(rep["threads"])
        print_rounds(rounds)
        if args.profile:
            profile(big, Path(tmp), args.profile_dir)


def profile(code: str, tmp: Path, save: Path | None) -> None:
    dist = unminified_build(tmp / "dist-unminified")
    (tmp / "profile").mkdir()
    os.environ["BACKSCOPE_FRONTEND_DIST"] = str(dist)
    try:
        with live_server(tmp / "profile", env=GENEROUS) as url, browser_page(url) as page:
            holder: dict[str, Any] = {}
            page.goto("/")
            # the live run with pan, select and step during the stream (what they cost shows)
            p_live = profiled(page, lambda: holder.update(live(page, code, interact=True)))
            p_rep = profiled(page, lambda: replay(page, holder["run_id"]))
    finally:
        os.environ.pop("BACKSCOPE_FRONTEND_DIST")
        shutil.rmtree(dist, ignore_errors=True)
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    print_profile("live run", p_live, save=save and save / "live.cpuprofile")
    print_profile("replay", p_rep, save=save and save / "replay.cpuprofile")


if __name__ == "__main__":
    main()
