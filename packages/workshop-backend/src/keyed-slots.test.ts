import { describe, expect, it } from "vitest";
import { KeyedSlots } from "./keyed-slots.ts";

describe("KeyedSlots", () => {
  it("lets N of one key run at once and refuses the N + 1st", () => {
    const gate = new KeyedSlots(2);
    const first = gate.enter("a");
    expect(gate.enter("a")).toBeDefined();
    expect(gate.enter("a")).toBeUndefined();
    first?.();
    expect(gate.enter("a")).toBeDefined();
  });

  it("counts each key apart: a busy one never refuses another", () => {
    const gate = new KeyedSlots(1);
    expect(gate.enter("a")).toBeDefined();
    expect(gate.enter("a")).toBeUndefined();
    expect(gate.enter("b")).toBeDefined();
  });

  it("releases once however often a release is called", () => {
    const gate = new KeyedSlots(1);
    const release = gate.enter("a");
    release?.();
    release?.();
    expect(gate.enter("a")).toBeDefined();
    expect(gate.enter("a")).toBeUndefined();
  });
});
