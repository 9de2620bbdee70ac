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
  /** `comparedFirst`: the record kept only its first lines (its dropped event says so), and only as many of the new run's were compared. */
  lines: { onlyBefore: string[]; onlyAfter: string[]; comparedFirst?: number };
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
  // A record cut at its cap kept its first lines in order: the new run's lines past as many are not a difference.
  const cut = before.events.some((event) => event.type === "dropped");
  const allAfter = comparableLines(after.events);
  const afterLines = cut ? allAfter.slice(0, beforeLines.length) : allAfter;
  const lines = {
    onlyBefore: missingFrom(beforeLines, afterLines),
    onlyAfter: missingFrom(afterLines, beforeLines),
    ...(cut && allAfter.length > afterLines.length ? { comparedFirst: beforeLines.length } : {}),
  };
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
