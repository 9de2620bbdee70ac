/**
 * What changed between a recorded run and a new run of the same snapshot: outcome, result, console
 * lines (compared as text, in order, as multisets) and time.
 */

import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import { comparableLines } from "./console-text.ts";

export interface RunSide {
  events: readonly RunEvent[];
  outcome: RunOutcome;
}

export interface RunDiff {
  outcome: { same: boolean; before: string; after: string };
  result: { same: boolean; before: string; after: string };
  lines: { onlyBefore: string[]; onlyAfter: string[] };
  time: { beforeMs: number; afterMs: number };
  same: boolean;
}

const describeOutcome = (outcome: RunOutcome) =>
  outcome.status === "ok" ? "ok" : `${outcome.kind}: ${outcome.message}`;
const describeResult = (outcome: RunOutcome) => (outcome.status === "ok" ? JSON.stringify(outcome.result) : "—");

/** Lines of `a` not matched one-for-one by a line of `b`. */
function missingFrom(a: string[], b: string[]): string[] {
  const counts = new Map<string, number>();
  for (const line of b) counts.set(line, (counts.get(line) ?? 0) + 1);
  return a.filter((line) => {
    const left = counts.get(line) ?? 0;
    if (left > 0) {
      counts.set(line, left - 1);
      return false;
    }
    return true;
  });
}

export function diffRuns(before: RunSide, after: RunSide): RunDiff {
  const outcome = { before: describeOutcome(before.outcome), after: describeOutcome(after.outcome) };
  const result = { before: describeResult(before.outcome), after: describeResult(after.outcome) };
  const beforeLines = comparableLines(before.events);
  const afterLines = comparableLines(after.events);
  const lines = { onlyBefore: missingFrom(beforeLines, afterLines), onlyAfter: missingFrom(afterLines, beforeLines) };
  const diff: RunDiff = {
    outcome: { ...outcome, same: outcome.before === outcome.after },
    result: { ...result, same: result.before === result.after },
    lines,
    time: { beforeMs: before.outcome.timings.totalMs, afterMs: after.outcome.timings.totalMs },
    same: false,
  };
  diff.same = diff.outcome.same && diff.result.same && lines.onlyBefore.length === 0 && lines.onlyAfter.length === 0;
  return diff;
}
