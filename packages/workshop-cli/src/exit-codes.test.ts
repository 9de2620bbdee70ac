import type { RunErrorKind, RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { EXIT, exitCodeFor, exitCodeWords } from "./exit-codes.ts";

const timings = { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 0 };
const failed = (kind: RunErrorKind): RunOutcome => ({ status: "error", runId: "r", kind, message: "m", timings });

describe("exitCodeFor", () => {
  it("gives ok 0 and each error kind a code of its own, none shared with the command line's own failures", () => {
    expect(exitCodeFor({ status: "ok", runId: "r", result: null, timings })).toBe(0);
    const kinds: RunErrorKind[] = ["user", "timeout", "cpu", "memory", "invalid", "cancelled", "busy"];
    const codes = kinds.map((kind) => exitCodeFor(failed(kind)));
    expect(codes).toEqual([1, 4, 5, 6, 3, 7, 8]);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
  });
});

describe("exitCodeWords", () => {
  it("words every code of the table, lowest first", () => {
    const codes = exitCodeWords().map((line) => Number(line.split(" ")[0]));
    expect(codes).toEqual(Object.values(EXIT).sort((a, b) => a - b));
    expect(exitCodeWords()).toContain("9 a test case failed (test, publish)");
  });
});
