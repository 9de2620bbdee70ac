/**
 * What one Cap'n Web connection shares between the objects it hands out: the overseer, the run slots
 * (a connection is one request, and the platform bounds Dynamic Workers per request), and counters of
 * live server-side objects so disposal can be observed.
 */

import type { ConnectionStats } from "@gadgets/workshop-shared/api";
import {
  ANONYMOUS_RUNS_PER_MINUTE,
  MAX_CONCURRENT_RUNS_PER_SESSION,
  SHARES_PER_MINUTE,
} from "@gadgets/workshop-shared/limits";
import type { Env } from "../env.ts";
import type { Executor } from "../executors/executor.ts";
import { LoaderExecutor } from "../executors/loader-executor.ts";
import { PoolExecutor } from "../executors/pool-executor.ts";
import { randomId } from "../storage/ids.ts";
import { RateLimiter } from "./rate-limiter.ts";
import type { Overseer } from "../overseer.ts";

export class Connection {
  /** Random, so anonymous isolates of different connections never share a key. */
  readonly id = randomId();
  readonly stats: ConnectionStats = { sessions: 0, agents: 0, runs: 0 };
  /** Runs in flight by id, so they can be cancelled. */
  readonly runs = new Map<string, AbortController>();
  /** Anonymous runs of shared gadgets from this connection. */
  readonly anonymousRuns = new RateLimiter(ANONYMOUS_RUNS_PER_MINUTE);
  /** Shares made on this connection. */
  readonly shares = new RateLimiter(SHARES_PER_MINUTE);
  /** Lookups of share or record ids that did not exist. */
  shareMisses = 0;
  /** Where this connection's runs execute: the local runner pool when configured, else the Worker Loader. */
  readonly executor: Executor & Partial<Disposable>;

  constructor(
    readonly env: Env,
    readonly overseer: Overseer,
    /**
     * Keeps work going after the client has gone (the request's `ctx.waitUntil`): a run cancelled by a
     * disconnect still ends, and its record is still written.
     */
    readonly waitUntil: (work: Promise<unknown>) => void = () => {},
  ) {
    this.executor =
      env.RUNNER_POOL_URL && env.RUNNER_POOL_SECRET
        ? new PoolExecutor({ url: env.RUNNER_POOL_URL, secret: env.RUNNER_POOL_SECRET })
        : new LoaderExecutor({ loader: env.LOADER });
  }

  /** The client went away: stop its runs and release what the connection holds. */
  close(): void {
    for (const controller of this.runs.values())
      controller.abort({ kind: "cancelled", message: "The client disconnected." });
    this.executor[Symbol.dispose]?.();
  }

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
