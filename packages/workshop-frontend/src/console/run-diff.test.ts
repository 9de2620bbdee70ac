import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { diffRuns } from "./run-diff.ts";

const timings = (totalMs: number) => ({ queueMs: 0, buildMs: 0, runMs: totalMs, totalMs });
const ok = (result: unknown, totalMs = 5): RunOutcome => ({
  status: "ok",
  runId: "r",
  result: result as never,
  timings: timings(totalMs),
});
const log = (text: string): RunEvent => ({
  type: "log",
  runId: "r",
  seq: 0,
  t: 0,
  level: "log",
  values: [{ t: "string", v: text }],
});

describe("diffRuns", () => {
  it("finds nothing between equal runs, whatever their times", () => {
    const diff = diffRuns({ events: [log("a")], outcome: ok(1, 5) }, { events: [log("a")], outcome: ok(1, 9) });
    expect(diff.same).toBe(true);
    expect(diff.time).toEqual({ beforeMs: 5, afterMs: 9 });
  });

  it("marks a changed result, outcome and lines", () => {
    const failed: RunOutcome = { status: "error", runId: "r", kind: "user", message: "Error: x", timings: timings(1) };
    const diff = diffRuns(
      { events: [log("a"), log("b"), log("b")], outcome: ok(1) },
      { events: [log("b"), log("c")], outcome: failed },
    );
    expect(diff.same).toBe(false);
    expect(diff.outcome).toEqual({ same: false, before: "ok", after: "user: Error: x" });
    expect(diff.result).toEqual({ same: false, before: "1", after: "—" });
    expect(diff.lines).toEqual({ onlyBefore: ["log: a", "log: b"], onlyAfter: ["log: c"] });
  });

  it("compares only the lines a cut record kept, and says so", () => {
    const dropped: RunEvent = { type: "dropped", runId: "r", seq: 0, t: 0, count: 2 };
    const lines = (n: number) => Array.from({ length: n }, (_, i) => log(`line ${i}`));
    const diff = diffRuns({ events: [...lines(3), dropped], outcome: ok(1) }, { events: lines(5), outcome: ok(1) });
    expect(diff.same).toBe(true);
    expect(diff.lines).toEqual({ onlyBefore: [], onlyAfter: [], comparedFirst: 3 });
    // A record that was not cut is compared whole.
    expect(
      diffRuns({ events: lines(3), outcome: ok(1) }, { events: lines(5), outcome: ok(1) }).lines.onlyAfter,
    ).toEqual(["log: line 3", "log: line 4"]);
  });
});
