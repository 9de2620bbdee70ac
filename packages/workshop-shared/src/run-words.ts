/**
 * A run's outcome and what triggered it, in words, as the IDE (its run panel, console, tests, Runs
 * view), the `/s/` and `/r/` pages, the embed and `gadgets logs` show them; the internal kind goes in a
 * tooltip (`outcomeTitle`). What a trigger carries (paths, schedules) is data: callers escape or render
 * it as text.
 */

import type { RunSummary, RunTrigger } from "./api.ts";
import type { RunErrorKind } from "./wire-basics.ts";

export const RUN_KIND_WORDS: Record<RunErrorKind, string> = {
  user: "threw",
  invalid: "invalid input or result",
  timeout: "timed out",
  cpu: "CPU limit",
  memory: "out of memory",
  cancelled: "cancelled",
  busy: "server busy",
};

/** How a run ended, in plain words; a kind this client does not know yet is shown as it came. */
export function outcomeWords(run: Pick<RunSummary, "status" | "kind">): string {
  if (run.status === "ok") return "ok";
  return (run.kind && Object.hasOwn(RUN_KIND_WORDS, run.kind) ? RUN_KIND_WORDS[run.kind] : run.kind) ?? "error";
}

// The overseer's words for a gadget that fails to build (an `invalid` outcome): see `#prepare` in overseer.ts.
const BUILD_FAILED = /^The gadget does not build/;
// The overseer and the runner pool word a timeout "took longer than 2000 ms".
const TIMEOUT_MS = /longer than (\d+) ms/;

/** A duration as people say it: `2 s`, `1.5 s`, `800 ms`. */
export function durationWords(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * A finished run's outcome in plain words, with what its message adds: "doesn't build" for an invalid
 * run whose code did not build, "timed out (2 s)" with the limit it hit.
 */
export function outcomeWordsOf(outcome: { status: "ok" | "error"; kind?: RunErrorKind; message?: string }): string {
  if (outcome.status === "error" && outcome.message !== undefined) {
    if (outcome.kind === "invalid" && BUILD_FAILED.test(outcome.message)) return "doesn't build";
    const limit = outcome.kind === "timeout" ? TIMEOUT_MS.exec(outcome.message)?.[1] : undefined;
    if (limit !== undefined) return `${RUN_KIND_WORDS.timeout} (${durationWords(Number(limit))})`;
  }
  return outcomeWords(outcome);
}

/** The tooltip beside the words: the outcome's internal kind, as the API and tests' `outcome` name it. */
export function outcomeTitle(outcome: { status: "ok" | "error"; kind?: RunErrorKind }): string {
  return `kind: ${outcome.status === "ok" ? "ok" : (outcome.kind ?? "error")}`;
}

/**
 * What fired a run that started on its own: `POST /hook → 200` (the endpoint's answer), or the schedule
 * and the slot it fired for (`every 10m, slot 12:00`, the slot written by `time`).
 */
export function triggerWords(trigger: RunTrigger, time: (at: number) => string): string {
  switch (trigger.kind) {
    case "http":
      return `${trigger.method} ${trigger.path} → ${trigger.status}`;
    case "schedule":
      return `${trigger.schedule}, slot ${time(trigger.scheduledAt)}`;
  }
}
