/**
 * Counts events per key in a sliding window (a minute unless told); `take()` says whether one more is allowed.
 * Kept small and in-house: it must run in a Worker (no Node timers or stores) and be readable without
 * counting (`allows`, `count`) so a server-wide ceiling can shed the heaviest key first.
 */
/** Keys kept before the first sweep of emptied windows. */
const MIN_SWEEP_KEYS = 10_000;

export class RateLimiter {
  readonly #events = new Map<string, number[]>();
  readonly #windowMs: number;
  readonly #now: () => number;
  #sweepAt = MIN_SWEEP_KEYS;

  constructor(
    private readonly limit: number,
    options: { windowMs?: number; now?: () => number } = {},
  ) {
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Events of `key` inside the window. */
  count(key = ""): number {
    const now = this.#now();
    return (this.#events.get(key) ?? []).filter((at) => now - at < this.#windowMs).length;
  }

  /** Whether `take()` would allow one more now, without counting it. */
  allows(key = ""): boolean {
    return this.count(key) < this.limit;
  }

  /**
   * Takes back the newest event `take()` counted for `key`: what was counted before an await (so that a
   * burst of requests cannot all pass a check none of them has counted yet) turned out not to count.
   */
  giveBack(key = ""): void {
    const times = this.#events.get(key);
    times?.pop();
    if (times?.length === 0) this.#events.delete(key);
  }

  take(key = ""): boolean {
    const now = this.#now();
    const recent = (this.#events.get(key) ?? []).filter((at) => now - at < this.#windowMs);
    if (recent.length >= this.limit) {
      this.#events.set(key, recent);
      return false;
    }
    recent.push(now);
    this.#events.set(key, recent);
    // Bounded memory: keys whose windows emptied are dropped once the map doubles past what the last
    // sweep left, so a sweep costs O(1) per take however many clients are live.
    if (this.#events.size > this.#sweepAt) {
      for (const [k, times] of this.#events)
        if (times.every((at) => now - at >= this.#windowMs)) this.#events.delete(k);
      this.#sweepAt = Math.max(MIN_SWEEP_KEYS, this.#events.size * 2);
    }
    return true;
  }
}

/**
 * Awaits a lookup whose miss the caller has already counted (`take()` before the await, so a burst of
 * lookups cannot pass a check that none of them has counted yet), and gives it back unless the lookup
 * missed: found, or failed, it was no miss.
 */
export async function countedMiss<T>(
  lookUp: Promise<T>,
  isMiss: (value: T) => boolean,
  giveBack: () => void,
): Promise<T> {
  let missed = false;
  try {
    const value = await lookUp;
    missed = isMiss(value);
    return value;
  } finally {
    if (!missed) giveBack();
  }
}
