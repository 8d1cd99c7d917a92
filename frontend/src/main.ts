// Entry point: build the app, reopen a shared run (?run=ID, at a step with &at=N), expose a
// test/bench handle.
import "./style.css";
import { App } from "./app";
import type { WireEvent } from "./wire";
import { benchAppend, benchDraw, benchFirstFrame, benchFold, benchLayout, benchSeek } from "./bench/run";
import { geometry, type Geometry } from "./bench/geometry";
import { shownForTests, type ShownValue } from "./ui/inspector";

const app = new App();

const params = new URLSearchParams(location.search);
const shared = params.get("run");
const at = params.get("at");
if (shared) app.opener.open(shared, at !== null && /^-?\d+$/.test(at) ? Number(at) : null);

declare global {
  interface Window {
    __backscope: {
      app: App;
      ingest: (events: WireEvent[]) => void;
      /** What is drawn where, for the browser tests (read from state, not pixels). */
      geometry: () => Geometry;
      /** The value the inspector shows for a tensor id at the cursor, for the browser tests. */
      shown: (tensorId: string) => ShownValue | null;
      bench: {
        firstFrame: (nodes: number) => Promise<Record<string, number>>;
        draw: () => Promise<Record<string, number>>;
        layout: (n: number, scoped?: boolean) => Promise<Record<string, number>>;
        append: (n: number, more: number) => Record<string, number>;
        seek: (nodes: number) => Promise<Record<string, number>>;
        fold: (runId: string) => Promise<Record<string, number>>;
      };
    };
  }
}
window.__backscope = {
  app,
  ingest: (events) => app.ingest(events),
  geometry: () => geometry(app),
  shown: (tensorId) => shownForTests(app.log.state(), tensorId),
  bench: {
    firstFrame: (nodes) => benchFirstFrame(app, nodes),
    draw: () => benchDraw(app),
    layout: (n, scoped) => benchLayout(n, scoped),
    append: (n, more) => benchAppend(n, more),
    seek: (nodes) => benchSeek(app, nodes),
    fold: (runId) => benchFold(runId),
  },
};
