/**
 * The Tests panel's rows: the cases in the editor's test file, each with its latest status — from
 * this session's last run when there is one, else from the draft's last recorded test run.
 */

import type { TestCase, TestCaseResult, TestStatus } from "@gadgets/workshop-shared";

export type RowStatus = "passed" | "failed" | "running" | "not run";

export interface TestRow {
  name: string;
  status: RowStatus;
  /** This session's result for the case (diff, outcome, timing). */
  result?: TestCaseResult;
  /** The status comes from a run of another version than the one being edited. */
  stale: boolean;
}

export function testRows(
  cases: readonly TestCase[],
  results: ReadonlyMap<string, TestCaseResult>,
  last: TestStatus | null,
  running: boolean,
  version: number,
): TestRow[] {
  return cases.map((test) => {
    const result = results.get(test.name);
    if (result) return { name: test.name, status: result.status, result, stale: false };
    if (running) return { name: test.name, status: "running", stale: false };
    const recorded = last?.cases.find((entry) => entry.name === test.name);
    return recorded
      ? { name: test.name, status: recorded.status, stale: last?.version !== version }
      : { name: test.name, status: "not run", stale: false };
  });
}

/** A value in a diff, short enough for a table cell. */
export function showValue(value: unknown, missing?: boolean): string {
  if (missing) return "(missing)";
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}
