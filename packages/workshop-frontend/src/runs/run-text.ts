/** How a run's state and timings read in one line of a page. */

import { outcomeTitle, outcomeWordsOf, type RunOutcome, type RunTimings } from "@gadgets/workshop-shared";
import type { RunState } from "./run-state.ts";

/** The run panel's status word: the phase while it runs, then how it ended ("" before any run). */
export function runStatusText(state: RunState): string {
  switch (state.status) {
    case "idle":
      return "";
    case "running":
      return `${state.phase}…`;
    case "done":
      return state.outcome.status === "ok" ? "✓ ok" : `✗ ${outcomeWordsOf(state.outcome)}`;
    case "interrupted":
      return "interrupted";
    case "failed":
      return "could not run";
  }
}

/** The status word's tooltip: the outcome's internal kind once the run is done. */
export function runStatusTitle(state: RunState): string | undefined {
  return state.status === "done" ? outcomeTitle(state.outcome) : undefined;
}

/** Where a run's time went: queue, build, run, total. */
export function timingsText(timings: RunTimings): string {
  return `queue ${timings.queueMs} ms · build ${timings.buildMs} ms · run ${timings.runMs} ms · total ${timings.totalMs} ms`;
}

/** An outcome in a line: the result as JSON, or the failure in words and its message. */
export function outcomeText(outcome: RunOutcome): string {
  return outcome.status === "ok"
    ? `ok → ${JSON.stringify(outcome.result)}`
    : `${outcomeWordsOf(outcome)}: ${outcome.message}`;
}
