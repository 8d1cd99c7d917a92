// Opening a shared run (`?run=ID`, at a step with `&at=N`): its log as it is now is read in
// bulk over HTTP (`/api/runs/ID/log`: a browser reads an HTTP body several times faster than
// the same bytes as websocket messages), then a run still going is followed over the socket
// (`resume` after the last event read). An id the server does not know comes back as an
// `unknown_run` error event in the log itself (a 404 would log a console error).
import type { App } from "./app";
import { readLog } from "./net";
import type { WireEvent } from "./wire";
import { byId } from "./ui/dom";

export class RunOpener {
  private app: App;
  private id = "";
  private at: number | null = null;
  private active = false;
  private reading: AbortController | null = null;
  /** The last seq the log read has handed over so far (-1 before any). */
  private readTo = -1;

  constructor(app: App) {
    this.app = app;
  }

  open(id: string, at: number | null): void {
    this.app.conn.reset();
    this.app.reset();
    this.id = id;
    this.at = at;
    this.active = true;
    this.app.panels.status(`opening run ${id}…`);
    const reading = new AbortController();
    this.reading = reading;
    this.readTo = -1;
    let ended = false;
    const onBatch = (batch: WireEvent[]): void => {
      if (reading.signal.aborted) return;
      ended ||= batch.some((e) => e.type === "run_finished" || (e.type === "command_error" && e.message.startsWith("unknown_run")));
      this.readTo = Math.max(this.readTo, batch[batch.length - 1]?.seq ?? -1);
      this.app.enqueue(batch);
    };
    void readLog(id, onBatch, reading.signal).then((r) => {
      if (reading.signal.aborted) return;
      this.reading = null;
      this.app.schedule();
      // a run still going (or a read cut short) goes on over the socket from what was read
      if (!ended) this.app.conn.send({ type: "resume", run_id: id, after_seq: r.last });
    });
  }

  /** True while the link's stored log is being read or its events applied: the page draws the
   *  run once they are in (see App.render). */
  get catchingUp(): boolean {
    return this.reading !== null || this.app.log.length - 1 < this.readTo;
  }

  /** A new run or reset: whatever link was being opened is no longer. */
  cancel(): void {
    this.reading?.abort();
    this.reading = null;
    this.readTo = -1;
    this.active = false;
    byId("notice").hidden = true;
  }

  /** Called with each batch the app takes, after it went into the log. */
  took(batch: WireEvent[]): void {
    if (!this.active) return;
    const log = this.app.log;
    for (const e of batch) {
      if (e.type === "command_error" && e.message.startsWith("unknown_run")) return this.notFound();
      // the snippet comes with the run: the editor shows the code that made this graph
      if (e.type === "run_started" && e.run_id === this.id) this.app.editor.code = e.code;
    }
    // a link made at a step reopens the run there, as soon as that step has arrived
    if (this.at !== null && this.at >= -1 && log.length - 1 > this.at) {
      log.seek(this.at);
      this.at = null;
    }
    if (batch.some((e) => e.type === "run_finished")) this.active = false;
  }

  private notFound(): void {
    this.active = false;
    const el = byId("notice");
    el.textContent = `There is no run ${this.id} on this server: the link may come from another server, or the run was deleted. Pick a snippet from Examples (or write one) and press ▶ Run.`;
    el.hidden = false;
    this.app.panels.status(`run ${this.id} not found`);
  }
}
