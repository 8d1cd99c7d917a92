// Entry point: build the app, reopen a shared run (?run=ID), expose a test/bench handle.
import "./style.css";
import { App } from "./app";
import { fetchRun } from "./net";
import type { WireEvent } from "./wire";
import { benchDraw, benchFirstFrame, benchLayout, benchSeek } from "./bench/run";
import { geometry, type Geometry } from "./bench/geometry";

const app = new App();

async function openShared(id: string): Promise<void> {
  const run = await fetchRun(id);
  if (!run) {
    app.panels.status(`run ${id} not found`);
    return;
  }
  app.editor.code = run.code;
  app.reset();
  app.ingest(run.events);
  const finished = run.events.some((e) => e.type === "run_finished");
  if (!finished) app.conn.send({ type: "resume", run_id: id, after_seq: run.events.length - 1 });
}

const shared = new URLSearchParams(location.search).get("run");
if (shared) void openShared(shared);

declare global {
  interface Window {
    __backscope: {
      app: App;
      ingest: (events: WireEvent[]) => void;
      /** What is drawn where, for the browser tests (read from state, not pixels). */
      geometry: () => Geometry;
      bench: {
        firstFrame: (nodes: number) => Promise<Record<string, number>>;
        draw: () => Promise<Record<string, number>>;
        layout: (n: number) => Promise<number>;
        seek: (nodes: number) => Promise<Record<string, number>>;
      };
    };
  }
}
window.__backscope = {
  app,
  ingest: (events) => app.ingest(events),
  geometry: () => geometry(app),
  bench: {
    firstFrame: (nodes) => benchFirstFrame(app, nodes),
    draw: () => benchDraw(app),
    layout: (n) => benchLayout(n),
    seek: (nodes) => benchSeek(app, nodes),
  },
};
