/**
 * The leases the pool has handed out on its runners' lanes (see RunnerLaneApi): who holds
 * each, on which runner. A lease that ended is kept for a grace period: a job sent on it just before
 * may still start (the lane's close and the job travel on different sockets), and its events and
 * outcome must still reach the Worker that sent it.
 */

import type { LeaseListener } from "../protocol.ts";
import { detached } from "../detached.ts";
import { MAX_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";
import { randomBytes } from "node:crypto";

/**
 * How long a run sent on a lane may still be going after the lane closed or its lease ended: the
 * longest run a Workshop allows, and a margin for its last lines to be read.
 */
export const LANE_RUN_GRACE_MS = MAX_RUN_TIMEOUT_MS + 5_000;

interface Held<Runner> {
  runner: Runner;
  listener: LeaseListener;
}

export class LeaseBook<Runner> {
  readonly #held = new Map<string, Held<Runner>>();
  /** The held leases by runner, then holder: a lease is granted (or found) on every placed run. */
  readonly #onRunner = new Map<Runner, Map<LeaseListener, string>>();
  readonly #ended = new Map<string, Held<Runner> & { at: number }>();
  readonly #graceMs: number;
  readonly #maxEnded: number;
  readonly #now: () => number;

  constructor(options: { graceMs: number; maxEnded: number; now?: () => number }) {
    this.#graceMs = options.graceMs;
    this.#maxEnded = options.maxEnded;
    this.#now = options.now ?? Date.now;
  }

  /** The lease `listener` holds on `runner`, granted now unless it holds one; its id is 128 random bits. */
  grant(runner: Runner, listener: LeaseListener): string {
    const holders = this.#onRunner.get(runner) ?? new Map<LeaseListener, string>();
    const held = holders.get(listener);
    if (held) return held;
    const leaseId = randomBytes(16).toString("hex");
    this.#held.set(leaseId, { runner, listener });
    holders.set(listener, leaseId);
    this.#onRunner.set(runner, holders);
    return leaseId;
  }

  /** Who hears of a run sent on `leaseId`, if that lease was on `runner` (held, or ended lately). */
  listener(leaseId: string, runner: Runner): LeaseListener | undefined {
    const lease = this.#held.get(leaseId) ?? this.#ended.get(leaseId);
    return lease?.runner === runner ? lease.listener : undefined;
  }

  /** The runner a lease is (or lately was) on. */
  runnerOf(leaseId: string): Runner | undefined {
    return (this.#held.get(leaseId) ?? this.#ended.get(leaseId))?.runner;
  }

  /** Its holder (`by`, when given) let it go, or it was revoked: no new runs on it. */
  end(leaseId: string, by?: LeaseListener): void {
    const lease = this.#held.get(leaseId);
    if (!lease || (by && lease.listener !== by)) return;
    this.#held.delete(leaseId);
    const holders = this.#onRunner.get(lease.runner);
    holders?.delete(lease.listener);
    if (holders?.size === 0) this.#onRunner.delete(lease.runner);
    const now = this.#now();
    for (const [id, ended] of this.#ended) {
      if (now - ended.at < this.#graceMs && this.#ended.size < this.#maxEnded) break;
      this.#ended.delete(id);
    }
    this.#ended.set(leaseId, { ...lease, at: now });
  }

  /** Ends every lease `listener` holds (its session has gone). */
  endAllOf(listener: LeaseListener): void {
    for (const [leaseId, lease] of this.#held) if (lease.listener === listener) this.end(leaseId);
  }

  /** Ends every lease on `runner`, telling each holder. */
  revokeAll(runner: Runner): void {
    for (const [listener, leaseId] of [...(this.#onRunner.get(runner) ?? [])]) {
      this.end(leaseId);
      detached("telling a Worker its lease was revoked", listener.revoked(leaseId));
    }
  }

  clear(): void {
    this.#held.clear();
    this.#onRunner.clear();
    this.#ended.clear();
  }
}
