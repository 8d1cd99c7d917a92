// One-line value summaries on edges and in the node list; complex values.
import { describe, expect, it } from "vitest";
import { hasAllValues, parseValue, shortNumber, summary } from "../src/model/value";
import { formatComplex, magnitudes, parseComplex } from "../src/model/complex";
import type { Value } from "../src/model/types";
import { applyEvent, emptyState } from "../src/model/reduce";
import { isStale } from "../src/render/scene";
import type { TensorValue } from "../src/protocol";
import { ev as mk, tensorInfo, val as wire } from "./events";

const val = (raw: TensorValue): Value => parseValue(raw) as Value;

describe("summary", () => {
  it("writes out tiny tensors the way PyTorch prints their values", () => {
    expect(summary(val({ shape: [3], dtype: "float32", values: [0, 0, 1] }))).toBe("[0., 0., 1.]");
    // as print(torch.tensor(...)) shows them in PyTorch 2.13: one format for the whole tensor
    expect(summary(val({ shape: [2, 2], dtype: "float32", values: [1, 2, 3, 4.5] }))).toBe("[[1.0000, 2.0000], [3.0000, 4.5000]]");
    expect(summary(val({ shape: [3], dtype: "float32", values: [0.5, 0, 1.5] }))).toBe("[0.5000, 0.0000, 1.5000]");
    expect(summary(val({ shape: [2], dtype: "float32", values: [1e-5, 1] }))).toBe("[1.0000e-05, 1.0000e+00]");
    expect(summary(val({ shape: [2], dtype: "float32", values: [60.2566, 1210.2864] }))).toBe("[60.2566, 1210.2864]");
    expect(summary(val({ shape: [], dtype: "float32", values: 2.718281828 }))).toBe("2.7183");
  });

  it("gives shape and L2 norm for larger ones", () => {
    expect(summary(val({ shape: [5], dtype: "float32", values: [3, 4, 0, 0, 0] }))).toBe("[5] norm 5");
  });
});

describe("shortNumber", () => {
  it("keeps tiny and huge magnitudes short", () => {
    expect(shortNumber(1e-40)).toBe("1.000e-40");
    expect(shortNumber(2.5e7)).toBe("2.500e+7");
    expect(shortNumber(0.12345678)).toBe("0.12346");
    expect(shortNumber(0)).toBe("0");
  });
});

describe("stale saved tensors", () => {
  it("are flagged only when bumped after the save, not when the client heard of an older version", () => {
    const s = emptyState();
    // BatchNorm updates running stats in place under no_grad: no version_bump reaches the client
    applyEvent(s, mk.tensor(0, tensorInfo(5, { version: 1, value: wire([0, 0, 0, 0, 0, 0, 0, 0]) })));
    applyEvent(s, mk.node(1, { id: 9, name: "NativeBatchNormBackward0", saved: [{ name: "_saved_running_mean", tensor: 5, version: 3 }] }));
    expect(isStale(s, "5", 3)).toBe(false);
    applyEvent(s, mk.bump(2, 5, 4, wire([1, 1, 1, 1, 1, 1, 1, 1]), 7));
    expect(isStale(s, "5", 3)).toBe(true);
  });

  it("are not flagged on a node whose buffers were freed (an optimizer step after backward)", () => {
    const s = emptyState();
    applyEvent(s, mk.tensor(0, tensorInfo(5, { requires_grad: true, value: wire([1, 2, 3, 4], [2, 2]) })));
    applyEvent(s, mk.node(1, { id: 9, name: "MmBackward0", saved: [{ name: "mat2", tensor: 5, version: 0 }] }));
    applyEvent(s, mk.bump(2, 5, 1, wire([0, 2, 3, 4], [2, 2]), 7));
    expect(isStale(s, "5", 0, "9")).toBe(true);
    applyEvent(s, mk.nodeExit(3, 9, [], true));
    expect(isStale(s, "5", 0, "9")).toBe(false);
  });

  it("are not flagged on a freed node of a log stored before node_exit said so", () => {
    const s = emptyState();
    applyEvent(s, mk.tensor(0, tensorInfo(5, { requires_grad: true, value: wire([1, 2, 3, 4], [2, 2]) })));
    applyEvent(s, mk.node(1, { id: 9, name: "MmBackward0", saved: [{ name: "mat2", tensor: 5, version: 0 }] }));
    applyEvent(s, mk.bump(2, 5, 1, wire([0, 2, 3, 4], [2, 2]), 7));
    applyEvent(s, mk.nodeExit(3, 9));
    expect(isStale(s, "5", 0, "9")).toBe(true);
    // protocol 2: a buffers_freed event after the exit (not a type of today's protocol)
    const legacy = { run_id: "r", seq: 4, t: 0, type: "buffers_freed", backward: 0, node: 9 };
    applyEvent(s, legacy as unknown as Parameters<typeof applyEvent>[1]);
    expect(isStale(s, "5", 0, "9")).toBe(false);
  });
});

describe("complex tensors", () => {
  // the tracer sends complex elements as Python writes them ("1+3j"), large ones as a sample
  it("parse into real and imaginary parts", () => {
    expect(parseComplex("1+3j")).toEqual([1, 3]);
    expect(parseComplex("(-0.5-2e-05j)")).toEqual([-0.5, -2e-5]);
    expect(parseComplex("1e+10-1e-10j")).toEqual([1e10, -1e-10]);
    expect(parseComplex("-3j")).toEqual([0, -3]);
    expect(parseComplex("nan+infj")).toEqual([NaN, Infinity]);
    expect(parseComplex("2")).toEqual([2, 0]);
  });

  it("are summarised as PyTorch 2.13 prints them", () => {
    // print(torch.complex(torch.tensor([1., 2.]), torch.tensor([3., 4.]))) → tensor([1.+3.j, 2.+4.j])
    const z = val({ shape: [2], dtype: "complex64", values: ["1+3j", "2+4j"] });
    expect(z.flat).toBeNull();
    expect(summary(z)).toBe("[1.+3.j, 2.+4.j]");
    // print(torch.complex(torch.tensor([.5, -1.25]), torch.tensor([-2., 1e-5])))
    // → tensor([ 0.5000-2.0000e+00j, -1.2500+1.0000e-05j])
    expect(summary(val({ shape: [2], dtype: "complex64", values: ["0.5-2j", "-1.25+1e-05j"] }))).toBe("[0.5000-2.0000e+00j, -1.2500+1.0000e-05j]");
    // print(torch.complex(torch.tensor(1.5), torch.tensor(-2.))) → tensor(1.5000-2.j)
    expect(summary(val({ shape: [], dtype: "complex64", values: "1.5-2j" }))).toBe("1.5000-2.j");
    expect(hasAllValues(z)).toBe(true);
  });

  it("keep a large one's sample, without stats, and do not call it complete", () => {
    const big = val({ shape: [40, 40], dtype: "complex64", sample: ["1+1j", "0-2j"] });
    expect(big.sampled).toBe(true);
    expect(big.complex).toEqual({ re: [1, 0], im: [1, -2] });
    expect(big.stats).toBeNull();
    expect(hasAllValues(big)).toBe(false);
    expect(summary(big)).toBe("[40, 40] complex64");
    expect(formatComplex({ re: [3], im: [4] })).toEqual(["3.+4.j"]);
    expect(magnitudes({ re: [3], im: [4] })).toEqual([5]);
  });
});
