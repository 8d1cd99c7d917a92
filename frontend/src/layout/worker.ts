// The long-lived layout worker: one GraphView per run (epoch), appended to as events arrive and
// laid out again when the view's options change (a module collapsed, another iteration shown).
import { Names, packPlaced, placedBuffers, unpackItems } from "./codec";
import { GraphView } from "./graphview";
import type { PlacedMessage, ToLayout } from "./messages";

let view = new GraphView();
let epoch = 0;
let layout = 0;
/** This epoch's names: the page's and the worker's own (module boxes). */
let names = new Names(-1);
let chains = new Map<number, readonly string[]>();

self.onmessage = (msg: MessageEvent<ToLayout>) => {
  const m = msg.data;
  const t0 = performance.now();
  if (m.type === "reset") {
    view = new GraphView();
    epoch = m.epoch;
    layout = 0;
    names = new Names(-1);
    chains = new Map();
    view.setOptions(m.options);
    return;
  }
  if (m.epoch !== epoch) return;
  const out = m.type === "add" ? view.add(unpackItems(m.items, names, chains), m.modules, m.flush)
    : m.type === "revise" ? view.revise(unpackItems(m.items, names, chains), m.modules) : view.setOptions(m.options);
  if (out.replace) layout += 1;
  const packed = packPlaced(out.placed, out.alias, names);
  const reply: PlacedMessage = { type: "placed", epoch, layout, seen: view.size, ms: performance.now() - t0, why: m.type, replace: out.replace, packed, frames: out.frames };
  (self as unknown as Worker).postMessage(reply, placedBuffers(packed));
};
