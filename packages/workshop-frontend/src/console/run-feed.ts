/**
 * How a run reaches a console store: its header ("Run of …") goes in with the first event, the only
 * place the run's id is known before the outcome; a record already complete goes in all at once.
 */

import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import type { ConsoleStore } from "./console-store.ts";

/** Feeds one streaming run into a console store. */
export class RunFeed {
  #runId: string | undefined;

  constructor(
    private readonly store: ConsoleStore,
    private readonly name: string,
  ) {}

  /** The run's id, once its first event came. */
  get runId(): string | undefined {
    return this.#runId;
  }

  /** Every event of the run, in order (a listener: it keeps its `this`). */
  readonly onEvent = (event: RunEvent): void => {
    if (this.#runId === undefined) {
      this.#runId = event.runId;
      this.store.startRun(event.runId, this.name);
    }
    this.store.add(event);
  };

  /** A run that ended without a single event (refused before it started) still shows, with its outcome. */
  finish(outcome: RunOutcome): void {
    if (this.#runId !== undefined) return;
    this.#runId = outcome.runId;
    this.store.startRun(outcome.runId, this.name);
    this.store.add({ type: "end", runId: outcome.runId, seq: 0, t: outcome.timings.totalMs, outcome });
  }
}

/** A finished run's events, as recorded, under their header. */
export function showRecordedRun(
  store: ConsoleStore,
  run: { runId: string; name: string; events: readonly RunEvent[] },
): void {
  store.startRun(run.runId, run.name);
  for (const event of run.events) store.add(event);
}
