/**
 * A run's outcome and what triggered it, in words, as the IDE's Runs view (the invocation log) and
 * `gadgets logs` show them. What a trigger carries (paths, schedules) is data: callers escape or render
 * it as text.
 */

import type { RunSummary, RunTrigger } from "./api.ts";
import type { RunErrorKind } from "./wire-basics.ts";

export const RUN_KIND_WORDS: Record<RunErrorKind, string> = {
  user: "threw",
  invalid: "invalid input or result",
  timeout: "timed out",
  cpu: "used too much CPU",
  memory: "ran out of memory",
  cancelled: "cancelled",
  busy: "server busy",
};

/** How a run ended, in plain words; a kind this client does not know yet is shown as it came. */
export function outcomeWords(run: Pick<RunSummary, "status" | "kind">): string {
  if (run.status === "ok") return "ok";
  return (run.kind && Object.hasOwn(RUN_KIND_WORDS, run.kind) ? RUN_KIND_WORDS[run.kind] : run.kind) ?? "error";
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
