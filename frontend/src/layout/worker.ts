// The long-lived layout worker: one GraphView per run (epoch), appended to as events arrive and
// laid out again when the view's options change (a module collapsed, another iteration shown).
import { GraphView } from "./graphview";
import type { FromLayout, ToLayout } from "./messages";

let view = new GraphView();
let epoch = 0;
let layout = 0;

self.onmessage = (msg: MessageEvent<ToLayout>) => {
  const m = msg.data;
  const t0 = performance.now();
  if (m.type === "reset") {
    view = new GraphView();
    epoch = m.epoch;
    layout = 0;
    view.setOptions(m.options);
    return;
  }
  if (m.epoch !== epoch) return;
  const out = m.type === "add" ? view.add(m.items, m.modules, m.flush) : m.type === "revise" ? view.revise(m.items, m.modules) : view.setOptions(m.options);
  if (out.replace) layout += 1;
  const reply: FromLayout = { type: "placed", epoch, layout, seen: view.size, ms: performance.now() - t0, why: m.type, ...out };
  (self as unknown as Worker).postMessage(reply);
};
