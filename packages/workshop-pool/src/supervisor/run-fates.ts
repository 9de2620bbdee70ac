/**
 * What the pool knows of each run by id — running, stopped with the outcome it gave it, or completed
 * by its runner — and cancels asked for before a run's start
 * line was read. Both are bounded: the oldest are forgotten first.
 */

import type { ExecuteResult } from "../protocol.ts";

export type KnownFate = ExecuteResult | "running" | "completed";
export type CancelReason = "timeout" | "cancelled";

export class RunFates {
  readonly #fates = new Map<string, KnownFate>();
  readonly #cancels = new Map<string, { reason: CancelReason; at: number }>();
  readonly #max: number;
  readonly #cancelWithinMs: number;
  readonly #now: () => number;

  constructor(options: { max: number; cancelWithinMs: number; now?: () => number }) {
    this.#max = options.max;
    this.#cancelWithinMs = options.cancelWithinMs;
    this.#now = options.now ?? Date.now;
  }

  get(runId: string): KnownFate | undefined {
    return this.#fates.get(runId);
  }

  has(runId: string): boolean {
    return this.#fates.has(runId);
  }

  set(runId: string, fate: KnownFate): void {
    this.#fates.delete(runId);
    this.#fates.set(runId, fate);
    if (this.#fates.size <= this.#max) return;
    const oldest = this.#fates.keys().next().value;
    if (oldest !== undefined) this.#fates.delete(oldest);
  }

  /** A cancel for a run not seen starting (yet): kept for `cancelWithinMs`. */
  cancelLater(runId: string, reason: CancelReason): void {
    const now = this.#now();
    for (const [id, pending] of this.#cancels) {
      if (now - pending.at < this.#cancelWithinMs) break;
      this.#cancels.delete(id);
    }
    if (this.#cancels.size >= this.#max) return;
    this.#cancels.set(runId, { reason, at: now });
  }

  /** The cancel waiting for `runId`, if any (taken: it applies once). */
  takeCancel(runId: string): CancelReason | undefined {
    const pending = this.#cancels.get(runId);
    if (!pending) return undefined;
    this.#cancels.delete(runId);
    return this.#now() - pending.at < this.#cancelWithinMs ? pending.reason : undefined;
  }

  clear(): void {
    this.#fates.clear();
    this.#cancels.clear();
  }
}
