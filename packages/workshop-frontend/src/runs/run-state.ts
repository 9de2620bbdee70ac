/**
 * A run's life as a page shows it (saving, queued, building, running, then done, interrupted or
 * failed), and the one place a streaming run's events become those states and console lines.
 */

import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import type { RunFeed } from "../console/run-feed.ts";
import { errorMessage } from "../error-message.ts";

export type RunState =
  | { status: "idle" }
  | { status: "running"; runId?: string; startedAt: number; phase: "saving" | "queued" | "building" | "running" }
  | { status: "done"; outcome: RunOutcome }
  | { status: "interrupted"; reason: string }
  | { status: "failed"; message: string };

/**
 * Starts a run (anything that streams its events to a listener and resolves with the outcome) and
 * reports it: queued once the request is out, the phase of each status event, then done or failed.
 * Its events go to `feed`. Resolves with the outcome, or undefined when there is none.
 */
export async function trackRun(
  start: (onEvent: (event: RunEvent) => void) => Promise<RunOutcome>,
  feed: RunFeed,
  { startedAt, onState }: { startedAt: number; onState(state: RunState): void },
): Promise<RunOutcome | undefined> {
  try {
    const pending = start((event) => {
      feed.onEvent(event);
      if (event.type === "status") onState({ status: "running", runId: event.runId, startedAt, phase: event.status });
    });
    // After the request, so it goes out before the page re-renders.
    onState({ status: "running", startedAt, phase: "queued" });
    const outcome = await pending;
    feed.finish(outcome);
    onState({ status: "done", outcome });
    return outcome;
  } catch (error) {
    onState({ status: "failed", message: errorMessage(error) });
    return undefined;
  }
}
