// The wire format as this client uses it. The one definition is the `protocol` package; its
// generated TypeScript is src/protocol.ts. Only src/model/ (the reducer) looks inside events;
// everything else sees the processed graph model (src/model/types.ts).
import type { Breakpoint, Command, Event, RunOptions, TensorValues } from "./protocol";

export type { Breakpoint, Command, RunOptions, TensorValues };

/** One server event (a member of the protocol's discriminated union on `type`). */
export type WireEvent = Event;

export type EventType = Event["type"];

export interface Example {
  id: string;
  title: string;
  code: string;
}

export interface StoredRun {
  id: string;
  code: string;
  status: string | null;
  events: WireEvent[];
}

/** True when a parsed JSON value looks like an event (server frames hold arrays of them);
 *  the fields past run_id/seq/type are read defensively by the reducer. */
export function isWireEvent(v: unknown): v is WireEvent {
  if (typeof v !== "object" || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.type === "string" && typeof o.seq === "number";
}
