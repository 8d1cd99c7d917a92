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
