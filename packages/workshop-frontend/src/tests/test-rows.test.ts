import { describe, expect, it } from "vitest";
import type { TestCaseResult, TestStatus } from "@gadgets/workshop-shared";
import { showValue, testRows } from "./test-rows.ts";

const cases = [
  { name: "a", input: 1, expect: {} },
  { name: "b", input: 2, expect: {} },
  { name: "c", input: 3, expect: {} },
];
const result = (name: string, status: "passed" | "failed") => ({ name, status }) as TestCaseResult;
const last: TestStatus = {
  status: "failed",
  version: 3,
  at: 0,
  total: 2,
  passed: 1,
  failed: 1,
  cases: [
    { name: "a", status: "passed", runId: "r1" },
    { name: "b", status: "failed", runId: "r2" },
  ],
};

describe("testRows", () => {
  it("prefers this session's results, then the recorded ones, marking those of another version", () => {
    const rows = testRows(cases, new Map([["a", result("a", "failed")]]), last, false, 4);
    expect(rows.map((row) => [row.name, row.status, row.stale])).toEqual([
      ["a", "failed", false],
      ["b", "failed", true],
      ["c", "not run", false],
    ]);
  });

  it("shows cases without a result as running while a run goes on", () => {
    expect(testRows(cases, new Map(), last, true, 3).map((row) => row.status)).toEqual([
      "running",
      "running",
      "running",
    ]);
  });
});

it("shows values short, and missing ones as such", () => {
  expect(showValue({ a: 1 })).toBe('{"a":1}');
  expect(showValue(null, true)).toBe("(missing)");
  expect(showValue("x".repeat(200))).toHaveLength(121);
});
