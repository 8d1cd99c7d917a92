// The long-lived layout worker: one LayeredLayout per run (epoch), appended to as events arrive.
import { LayeredLayout } from "./layered";
import type { FromLayout, ToLayout } from "./messages";

let layout = new LayeredLayout();
let epoch = 0;

self.onmessage = (msg: MessageEvent<ToLayout>) => {
  const m = msg.data;
  if (m.type === "reset") {
    layout = new LayeredLayout();
    epoch = m.epoch;
    return;
  }
  if (m.epoch !== epoch) return;
  const t0 = performance.now();
  const items = layout.add(m.items);
  if (m.flush) items.push(...layout.flush());
  const reply: FromLayout = { type: "placed", epoch, items, ms: performance.now() - t0 };
  (self as unknown as Worker).postMessage(reply);
};
