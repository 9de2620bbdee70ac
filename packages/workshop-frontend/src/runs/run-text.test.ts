import type { RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { outcomeText, runStatusText, runStatusTitle, timingsText } from "./run-text.ts";

const timings = { queueMs: 1, buildMs: 2, runMs: 3, totalMs: 7 };
const ok: RunOutcome = { status: "ok", runId: "r", result: { n: 1 }, timings };
const failed: RunOutcome = {
  status: "error",
  runId: "r",
  kind: "timeout",
  message: "The run took longer than 2000 ms and was stopped.",
  timings,
};

describe("runStatusText", () => {
  it("names the phase while running, then how the run ended", () => {
    expect(runStatusText({ status: "idle" })).toBe("");
    expect(runStatusText({ status: "running", startedAt: 0, phase: "building" })).toBe("building…");
    expect(runStatusText({ status: "done", outcome: ok })).toBe("✓ ok");
    expect(runStatusText({ status: "done", outcome: failed })).toBe("✗ timed out (2 s)");
    expect(runStatusTitle({ status: "done", outcome: failed })).toBe("kind: timeout");
    expect(runStatusTitle({ status: "idle" })).toBeUndefined();
    expect(runStatusText({ status: "interrupted", reason: "lost" })).toBe("interrupted");
    expect(runStatusText({ status: "failed", message: "no" })).toBe("could not run");
  });
});

describe("timingsText and outcomeText", () => {
  it("write a run's times and its outcome in a line", () => {
    expect(timingsText(timings)).toBe("queue 1 ms · build 2 ms · run 3 ms · total 7 ms");
    expect(outcomeText(ok)).toBe('ok → {"n":1}');
    expect(outcomeText(failed)).toBe("timed out (2 s): The run took longer than 2000 ms and was stopped.");
  });
});
