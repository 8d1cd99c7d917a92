// Saved-tensor hooks (torch.autograd.graph.saved_tensors_hooks, save_on_cpu): which of a node's
// saved tensors a pack hook took and into what, and when backward unpacked each of them.
import type { SavedPack, SavedUnpack } from "../protocol";
import type { WireEvent } from "../wire";
import type { RunState, SavedRef, Unpack } from "./types";
import { sid } from "./forward";

export function unpackKey(node: string, name: string): string {
  return `${node}|${name}`;
}

/** `saved_pack` (right after its node's `node` event): mark the saved tensor as packed. */
export function onSavedPack(s: RunState, e: SavedPack): void {
  const node = sid(e.node);
  const v = node !== null ? s.vertices.get(node) : undefined;
  if (!v) return;
  const name = e.name;
  const packed = { hooked: true, packedType: e.packed_type || null, packSeq: e.seq };
  const saved = v.saved.slice();
  const i = saved.findIndex((sv) => sv.name === name);
  const prev = saved[i];
  if (prev) saved[i] = { ...prev, ...packed };
  else saved.push({ name, tensor: sid(e.tensor), versionAtSave: 0, ...packed });
  s.vertices.set(v.id, { ...v, saved });
}

/** `saved_unpack`: backward (or a `grad_fn._saved_*` read) asked the unpack hook for it. */
export function onSavedUnpack(s: RunState, e: SavedUnpack): void {
  const seq = e.seq;
  const node = sid(e.node);
  if (node === null) return;
  let name = e.name ?? "";
  // a tracer that does not say which: the first packed tensor not unpacked in this pass
  if (!name) name = s.vertices.get(node)?.saved.find((sv) => sv.hooked && !unpackedNow(s, node, sv.name))?.name ?? "";
  if (!name) return;
  const key = unpackKey(node, name);
  const prev = s.unpacked.get(key);
  const count = (prev?.count ?? 0) + 1;
  if (s.inBackward) s.unpacked.set(key, { seq, backward: s.backwards, during: s.current, outsideSeq: prev?.outsideSeq ?? null, count });
  else s.unpacked.set(key, { seq: prev?.seq ?? -1, backward: prev?.backward ?? 0, during: prev?.during ?? null, outsideSeq: seq, count });
}

/** The unpack of this saved tensor in the current backward pass, if it happened yet. */
export function unpackedNow(s: RunState, node: string, name: string): Unpack | null {
  const u = s.unpacked.get(unpackKey(node, name));
  return u && u.backward === s.backwards && s.backwards > 0 ? u : null;
}

/** What the hook column of the inspector's saved-tensor table says about one saved tensor. */
export function savedHookText(s: RunState, node: string, sv: SavedRef): { packed: string; unpacked: string; now: boolean } | null {
  if (!sv.hooked) return null;
  const packed = `packed → ${sv.packedType ?? "?"}`;
  const u = unpackedNow(s, node, sv.name);
  const any = s.unpacked.get(unpackKey(node, sv.name));
  // a read of grad_fn._saved_<name> outside backward runs the unpack hook too
  const outside = any?.outsideSeq != null ? ` · read at #${any.outsideSeq} outside backward` : "";
  const now = any !== undefined && (any.seq === s.seq || any.outsideSeq === s.seq);
  if (u) {
    const where = u.during !== null && u.during !== node ? ` (in ${s.vertices.get(u.during)?.name ?? u.during})` : "";
    return { packed, unpacked: `unpacked at #${u.seq}${where}${outside}`, now };
  }
  if (s.backwards === 0) return { packed, unpacked: `not unpacked by backward (it has not run)${outside}`, now };
  const st = s.nodeState.get(node);
  const done = st === "done" || st === "freed";
  return { packed, unpacked: `${done || !s.inBackward ? "not unpacked in this backward pass" : "not unpacked yet"}${outside}`, now };
}

/** A few words on a saved-tensor event for the timeline label ("other of MulBackward0 → int"). */
export function savedEventText(s: RunState, ev: WireEvent): string {
  if (ev.type !== "saved_pack" && ev.type !== "saved_unpack") return "";
  const node = ev.node !== null ? s.vertices.get(String(ev.node)) : undefined;
  const of = `${ev.name ?? "a saved tensor"}${node ? ` of ${node.name}` : ""}`;
  return ev.type === "saved_pack" ? `${of} → ${ev.packed_type}` : of;
}
