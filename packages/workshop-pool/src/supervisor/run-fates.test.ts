import { describe, expect, it } from "vitest";
import { RunFates } from "./run-fates.ts";

describe("RunFates", () => {
  it("remembers the latest fate of a run, and forgets the oldest past its bound", () => {
    const fates = new RunFates({ max: 2, cancelWithinMs: 1000 });
    fates.set("a", "running");
    fates.set("a", "completed");
    fates.set("b", "running");
    expect(fates.get("a")).toBe("completed");
    fates.set("c", "completed");
    expect(fates.has("a")).toBe(false);
    expect(fates.get("c")).toBe("completed");
  });

  it("keeps a cancel for a run not seen yet, once, and only for a while", () => {
    let now = 0;
    const fates = new RunFates({ max: 10, cancelWithinMs: 1000, now: () => now });
    fates.cancelLater("a", "timeout");
    fates.cancelLater("b", "cancelled");
    expect(fates.takeCancel("a")).toBe("timeout");
    expect(fates.takeCancel("a")).toBeUndefined();
    now = 1500;
    expect(fates.takeCancel("b")).toBeUndefined();
  });

  it("holds at most `max` pending cancels", () => {
    const fates = new RunFates({ max: 2, cancelWithinMs: 60_000 });
    for (const id of ["a", "b", "c"]) fates.cancelLater(id, "cancelled");
    expect(["a", "b", "c"].map((id) => fates.takeCancel(id))).toEqual(["cancelled", "cancelled", undefined]);
  });
});
