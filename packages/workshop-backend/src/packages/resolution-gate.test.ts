import { describe, expect, it } from "vitest";
import { ResolutionGate } from "./resolution-gate.ts";

describe("ResolutionGate", () => {
  it("lets N resolutions of one workspace run at once and refuses the N + 1st", () => {
    const gate = new ResolutionGate(2);
    const first = gate.enter("a");
    expect(gate.enter("a")).toBeDefined();
    expect(gate.enter("a")).toBeUndefined();
    first?.();
    expect(gate.enter("a")).toBeDefined();
  });

  it("counts each workspace apart: a busy one never refuses another", () => {
    const gate = new ResolutionGate(1);
    expect(gate.enter("a")).toBeDefined();
    expect(gate.enter("a")).toBeUndefined();
    expect(gate.enter("b")).toBeDefined();
  });

  it("releases once however often a release is called", () => {
    const gate = new ResolutionGate(1);
    const release = gate.enter("a");
    release?.();
    release?.();
    expect(gate.enter("a")).toBeDefined();
    expect(gate.enter("a")).toBeUndefined();
  });
});
