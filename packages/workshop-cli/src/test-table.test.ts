import type { TestCaseResult } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { painter } from "./terminal-style.ts";
import { formatCaseResult, formatSummary } from "./test-table.ts";
import { ALL_ATTACKS, ATTACKS, steeringCharacters } from "./testing/terminal-attacks.ts";

const plain = painter(false);
const timings = { queueMs: 0, buildMs: 0, runMs: 1, totalMs: 1 };

describe("formatCaseResult", () => {
  it("shows a passing case on one line and a failing one with its checks", () => {
    const passed: TestCaseResult = {
      index: 0,
      name: "echoes",
      status: "passed",
      runId: "r1",
      outcome: { status: "ok", runId: "r1", result: "Echo: hi", timings },
      failures: [],
      errorLogs: 0,
      durationMs: 12.4,
    };
    expect(formatCaseResult(passed, plain)).toBe("✓ echoes (12 ms)\n");
    const failed: TestCaseResult = {
      ...passed,
      name: "sums",
      status: "failed",
      failures: [{ check: "equals", path: "$.sum", expected: 6, actual: 5, message: "differs" }],
    };
    expect(formatCaseResult(failed, plain)).toBe(
      "✗ sums (12 ms)\n    equals at $.sum: differs\n      expected 6\n      actual   5\n",
    );
  });

  it("shows control characters in names, checks and values as escapes", () => {
    const result: TestCaseResult = {
      index: 0,
      name: ATTACKS.overwrite,
      status: "failed",
      runId: "r1",
      outcome: { status: "ok", runId: "r1", result: ALL_ATTACKS, timings },
      failures: [
        {
          check: "equals",
          path: `$.${ATTACKS.title}`,
          expected: ATTACKS.c1,
          actual: ALL_ATTACKS,
          message: ALL_ATTACKS,
        },
      ],
      errorLogs: 0,
      durationMs: 1,
    };
    for (const colors of [false, true]) {
      const text = formatCaseResult(result, painter(colors));
      expect(steeringCharacters(text, colors)).toEqual([]);
      expect(text).not.toContain("\u001b[8m");
    }
    expect(formatCaseResult(result, plain)).toContain("✗ \\u000d\\u001b[1A✓ all checks passed (1 ms)");
  });
});

describe("formatSummary", () => {
  it("counts the cases (one case, not one cases) of the saved revision, and names an invalid test file", () => {
    expect(
      formatSummary(
        { status: "failed", draftId: "d", version: 3, total: 3, passed: 2, failed: 1, durationMs: 40, results: [] },
        plain,
      ),
    ).toBe("3 cases: 2 passed, 1 failed (saved #3, 40 ms)\n");
    expect(
      formatSummary(
        { status: "failed", draftId: "d", version: 2, total: 1, passed: 0, failed: 1, durationMs: 21, results: [] },
        plain,
      ),
    ).toBe("1 case: 0 passed, 1 failed (saved #2, 21 ms)\n");
    expect(
      formatSummary({ status: "invalid", draftId: "d", version: 1, message: "cases[0].name is missing" }, plain),
    ).toBe("gadget.tests.json is invalid: cases[0].name is missing\n");
    const invalid = formatSummary({ status: "invalid", draftId: "d", version: 1, message: ALL_ATTACKS }, plain);
    expect(steeringCharacters(invalid)).toEqual([]);
  });
});
