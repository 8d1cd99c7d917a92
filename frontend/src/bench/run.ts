// Speed measurements run inside the page: bench/bench_frontend.py reports them against their
// targets; tests/browser/test_scale.py checks what they load at those sizes (no timings).
import type { App } from "../app";
import { itemBuffers, Names, packItems } from "../layout/codec";
import type { PlacedMessage, ToLayout } from "../layout/messages";
import { LayeredLayout } from "../layout/layered";
import type { RawItem } from "../layout/graphview";
import { RunLog } from "../model/store";
import { readLog } from "../net";
import { synthRun } from "./synth";

function nextFrame(): Promise<number> {
  return new Promise((r) => requestAnimationFrame(() => r(performance.now())));
}

/** Stream a synthetic run of `nodes` nodes in batches; time from last event to a full frame. */
export async function benchFirstFrame(app: App, nodes: number, batch = 2000): Promise<Record<string, number>> {
  const events = synthRun(nodes);
  app.reset();
  let applyMs = 0;
  for (let i = 0; i < events.length; i += batch) {
    const t0 = performance.now();
    app.ingest(events.slice(i, i + batch));
    applyMs += performance.now() - t0;
    if (i + batch < events.length) await new Promise((r) => setTimeout(r, 0));
  }
  const last = app.metrics.lastEventAt;
  const deadline = last + 10000;
  while (!app.metrics.firstFullFrameAt && performance.now() < deadline) await nextFrame();
  return { events: events.length, vertices: app.log.state().vertices.size, placed: app.place.pos.size, firstFrameMs: app.metrics.firstFullFrameAt - last, ingestMs: applyMs, eventsPerSec: events.length / (applyMs / 1000) };
}

/** Pan for `frames` animation frames at the fitted view and zoomed in; the mean interval
 *  between frames includes rasterization (a draw call alone only records commands). */
export async function benchDraw(app: App, frames = 30): Promise<Record<string, number>> {
  const pan = async (): Promise<number> => {
    const t0 = await nextFrame();
    for (let i = 0; i < frames; i++) {
      app.dispatch({ type: "pan", dx: 3, dy: 0 });
      await nextFrame();
    }
    return (performance.now() - t0) / frames;
  };
  const whole = app.minZoom() / 0.7;
  app.dispatch({ type: "refit" });
  await nextFrame();
  app.dispatch({ type: "zoomAt", sx: app.canvas.size.w / 2, sy: app.canvas.size.h / 2, factor: whole / app.view.viewport.k, min: whole });
  const fitted = await pan();
  app.dispatch({ type: "zoomAt", sx: app.canvas.size.w / 2, sy: app.canvas.size.h / 2, factor: 1 / app.view.viewport.k });
  const zoomed = await pan();
  app.dispatch({ type: "refit" });
  return { fittedFrameIntervalMs: fitted, zoomedFrameIntervalMs: zoomed };
}

/** A random tape-ordered DAG of `n` vertices (every fifth a deferred leaf), or with `scoped` a
 *  chain in 1 module call per 5 vertices (each call a new layout band). */
function benchItems(n: number, scoped: boolean): RawItem[] {
  const items: RawItem[] = [];
  let x = 7;
  const rand = (): number => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < n; i++) {
    if (scoped) {
      const b = Math.floor(i / 5);
      items.push({ id: String(i), to: i > 0 ? [String(i - 1)] : [], width: 100, seq: i, scope: ["net#0", `net.block${b % 7}#${b + 1}`] });
      continue;
    }
    const to = i > 0 ? [String(Math.floor(rand() * i)), String(i - 1)] : [];
    items.push({ id: String(i), to, width: 80 + Math.floor(rand() * 100), defer: i % 5 === 0, seq: i });
  }
  return items;
}

/** Lay out `n` vertices in a fresh worker: the worker's own time and how many it placed. */
export function benchLayout(n: number, scoped = false): Promise<Record<string, number>> {
  const items = benchItems(n, scoped);
  const w = new Worker(new URL("../layout/worker.ts", import.meta.url), { type: "module" });
  return new Promise((resolve) => {
    w.onmessage = (m: MessageEvent<PlacedMessage>) => {
      w.terminate();
      resolve({ ms: m.data.ms, placed: m.data.packed.id.length });
    };
    const options = { collapsed: [], iteration: null, backwardSeqs: [] };
    const packed = packItems(items, new Names(1));
    const msgs: ToLayout[] = [{ type: "reset", epoch: 1, options }, { type: "add", epoch: 1, items: packed, modules: [], flush: true }];
    for (const msg of msgs) w.postMessage(msg, msg.type === "add" ? itemBuffers(msg.items) : []);
  });
}

/** Append `more` vertices to a layout of `n` (in the page): placed vertices never move, so
 *  an append should cost about what the new vertices cost. */
export function benchAppend(n: number, more: number): Record<string, number> {
  const items = benchItems(n + more, false);
  const l = new LayeredLayout();
  const t0 = performance.now();
  l.add(items.slice(0, n));
  const t1 = performance.now();
  const placed = l.add(items.slice(n)).length;
  return { fullMs: t1 - t0, appendMs: performance.now() - t1, placed };
}

/** Load a run of about `events` events, then time seeks: from the seek to the next frame
 *  drawn with the state at the new cursor (snapshot + replay, canvas, panels, page layout). */
export async function benchSeek(app: App, nodes: number, seeks = 20): Promise<Record<string, number>> {
  const events = synthRun(nodes);
  // the store's apply rate: best of three appends of the whole run into a fresh log
  let appendMs = Infinity;
  for (let r = 0; r < 3; r++) {
    app.reset();
    const t0 = performance.now();
    app.log.append(events);
    appendMs = Math.min(appendMs, performance.now() - t0);
  }
  app.ingest([]);
  // seeks are measured on a loaded run: wait for the worker's placements to arrive
  const until = performance.now() + 10000;
  while (app.place.seen < app.log.state().orderLen && performance.now() < until) await nextFrame();
  await nextFrame();
  let seed = 3, stateMs = 0;
  const times: number[] = [];
  for (let i = 0; i < seeks; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const k = seed % events.length;
    await nextFrame();
    const t1 = performance.now();
    app.log.seek(k);
    app.log.state();
    stateMs = Math.max(stateMs, performance.now() - t1);
    app.seek(k);
    await nextFrame(); // the app renders in this frame's callbacks, before ours
    void document.body.offsetHeight; // and the page's layout for the new panels
    times.push(performance.now() - t1);
  }
  times.sort((a, b) => a - b);
  const worst = times[times.length - 1] ?? 0, median = times[Math.floor(times.length / 2)] ?? 0;
  const rate = events.length / (appendMs / 1000);
  return { events: events.length, appendMs, eventsPerSec: rate, worstSeekToFrameMs: worst, medianSeekToFrameMs: median, worstStateMs: stateMs };
}

/** A stored run's log as a share link reads it (HTTP frames, parsed), folded by the run log
 *  alone (no layout, no drawing, no panels): the floor under a replay of it. `foldMs` is the
 *  run log's part. */
export async function benchFold(runId: string): Promise<Record<string, number>> {
  const log = new RunLog();
  let foldMs = 0;
  const t0 = performance.now();
  await readLog(runId, (batch) => {
    const t1 = performance.now();
    log.append(batch);
    foldMs += performance.now() - t1;
  }, new AbortController().signal);
  const ms = performance.now() - t0;
  return { events: log.length, ms, foldMs, eventsPerSec: log.length / (ms / 1000) };
}
