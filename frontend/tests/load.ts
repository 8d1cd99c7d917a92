// Recorded event streams (`backscope trace tests/fixtures/NAME.py -o tests/fixtures/NAME.jsonl`).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { isWireEvent, type WireEvent } from "../src/wire";

export function fixture(name: string): WireEvent[] {
  const path = fileURLToPath(new URL(`./fixtures/${name}.jsonl`, import.meta.url));
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as unknown).filter(isWireEvent);
}
