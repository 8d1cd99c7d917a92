// The connection to the server: one websocket (JSON commands out, JSON event batches in) and
// the REST read for examples (stored runs are read over the socket: see opener.ts).
import { isWireEvent, type Command, type Example, type WireEvent } from "./wire";

export class Connection {
  private ws: WebSocket | null = null;
  private queue: string[] = [];
  onEvents: (batch: WireEvent[]) => void = () => {};
  onClose: () => void = () => {};

  private open(): WebSocket {
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) return this.ws;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    ws.onopen = () => {
      for (const m of this.queue.splice(0)) ws.send(m);
    };
    ws.onmessage = (m) => {
      if (typeof m.data !== "string") return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(m.data);
      } catch {
        return;
      }
      const batch = (Array.isArray(parsed) ? parsed : [parsed]).filter(isWireEvent);
      if (batch.length) this.onEvents(batch);
    };
    ws.onclose = () => {
      if (this.ws === ws) this.ws = null;
      this.onClose();
    };
    this.ws = ws;
    return ws;
  }

  send(cmd: Command): void {
    const ws = this.open();
    const text = JSON.stringify(cmd);
    if (ws.readyState === WebSocket.OPEN) ws.send(text);
    else this.queue.push(text);
  }

  /** Drop the socket (a new run starts on a fresh one so old batches cannot interleave). */
  reset(): void {
    const ws = this.ws;
    this.ws = null;
    this.queue = [];
    if (ws) {
      ws.onmessage = null;
      ws.onclose = null;
      ws.close();
    }
  }
}

export async function fetchExamples(): Promise<Example[]> {
  const r = await fetch("/api/examples");
  if (!r.ok) return [];
  const data: unknown = await r.json();
  return Array.isArray(data) ? (data as Example[]) : [];
}

/** How reading a run's log over HTTP ended: every frame read, or not (the page falls back to
 *  the websocket's `resume` from the last event it has). */
export interface LogRead {
  ok: boolean;
  last: number;
}

/** Read `/api/runs/{id}/log`: frames of "<length>\n<JSON array of events>", each handed to
 *  `onBatch` as soon as it is whole. `last` is the highest seq handed over (-1: none). */
export async function readLog(runId: string, onBatch: (batch: WireEvent[]) => void, signal: AbortSignal): Promise<LogRead> {
  let last = -1;
  const take = (text: string): void => {
    const parsed: unknown = JSON.parse(text);
    const batch = (Array.isArray(parsed) ? parsed : [parsed]).filter(isWireEvent);
    for (const e of batch) if (e.seq > last) last = e.seq;
    if (batch.length) onBatch(batch);
  };
  try {
    const r = await fetch(`/api/runs/${encodeURIComponent(runId)}/log`, { signal });
    if (!r.ok || !r.body) return { ok: false, last };
    const reader = r.body.getReader();
    const frames = new FrameReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const text of frames.push(value)) {
        if (signal.aborted) return { ok: false, last };
        take(text);
      }
    }
    return { ok: frames.empty, last };
  } catch {
    return { ok: false, last };
  }
}

const NEWLINE = 10;
const decoder = new TextDecoder();

/** Cuts a byte stream of length-prefixed frames into the frames' texts. */
export class FrameReader {
  private parts: Uint8Array[] = [];
  private held = 0;
  /** The length of the frame being read (-1 while its header is still coming). */
  private need = -1;

  get empty(): boolean {
    return this.held === 0 && this.need < 0;
  }

  /** Add bytes; the texts of the frames they complete. */
  push(bytes: Uint8Array): string[] {
    this.parts.push(bytes);
    this.held += bytes.length;
    const out: string[] = [];
    for (;;) {
      if (this.need < 0) {
        const header = this.header();
        if (header === null) break;
        this.need = header;
      }
      if (this.held < this.need) break;
      out.push(decoder.decode(this.take(this.need)));
      this.need = -1;
    }
    return out;
  }

  /** The next header's length (its bytes consumed), or null while its newline is not here. */
  private header(): number | null {
    let n = 0;
    let seen = 0;
    for (const p of this.parts) {
      for (let i = 0; i < p.length; i++, seen++) {
        const c = p[i] as number;
        if (c === NEWLINE) {
          this.take(seen + 1);
          return n;
        }
        if (c < 48 || c > 57 || seen > 15) throw new Error("malformed frame header");
        n = n * 10 + (c - 48);
      }
    }
    return null;
  }

  /** The first `n` held bytes, removed (one copy at most). */
  private take(n: number): Uint8Array {
    const first = this.parts[0] as Uint8Array;
    let out: Uint8Array;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.parts.shift();
      else this.parts[0] = first.subarray(n);
    } else {
      out = new Uint8Array(n);
      let at = 0;
      while (at < n) {
        const p = this.parts[0] as Uint8Array;
        const k = Math.min(p.length, n - at);
        out.set(p.subarray(0, k), at);
        at += k;
        if (k === p.length) this.parts.shift();
        else this.parts[0] = p.subarray(k);
      }
    }
    this.held -= n;
    return out;
  }
}
