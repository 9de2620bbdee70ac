import type { TestCaseResult } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { painter } from "./terminal-style.ts";
import { formatCaseResult, formatSummary } from "./test-table.ts";

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
});

describe("formatSummary", () => {
  it("counts the cases and names an invalid test file", () => {
    expect(
      formatSummary(
        { status: "failed", draftId: "d", version: 3, total: 3, passed: 2, failed: 1, durationMs: 40, results: [] },
        plain,
      ),
    ).toBe("3 cases: 2 passed, 1 failed (version 3, 40 ms)\n");
    expect(
      formatSummary({ status: "invalid", draftId: "d", version: 1, message: "cases[0].name is missing" }, plain),
    ).toBe("gadget.tests.json is invalid: cases[0].name is missing\n");
  });
});
