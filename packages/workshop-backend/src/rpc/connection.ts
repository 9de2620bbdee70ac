/**
 * What one Cap'n Web connection shares between the objects it hands out: the overseer, the run slots
 * (a connection is one request, and the platform bounds Dynamic Workers per request), and counters of
 * live server-side objects so disposal can be observed.
 */

import type { ConnectionStats } from "@gadgets/workshop-shared/api";
import { MAX_CONCURRENT_RUNS_PER_SESSION } from "@gadgets/workshop-shared/limits";
import type { Env } from "../env.ts";
import type { Overseer } from "../overseer.ts";


export class Connection {
  readonly stats: ConnectionStats = { sessions: 0, agents: 0, runs: 0 };
  /** Runs in flight by id, so they can be cancelled. */
  readonly runs = new Map<string, AbortController>();

  constructor(
    readonly env: Env,
    readonly overseer: Overseer,
  ) {}

  /** Takes a run slot, or returns undefined when the connection is at its limit. */
  acquireRunSlot(runId: string): AbortController | undefined {
    if (this.runs.size >= MAX_CONCURRENT_RUNS_PER_SESSION) return undefined;
    const controller = new AbortController();
    this.runs.set(runId, controller);
    this.stats.runs = this.runs.size;
    return controller;
  }

  releaseRunSlot(runId: string): void {
    this.runs.delete(runId);
    this.stats.runs = this.runs.size;
  }

  busyMessage(): string {
    return `This session already has ${MAX_CONCURRENT_RUNS_PER_SESSION} runs in flight, the limit. Wait for one to finish, or open another session.`;
  }
}
