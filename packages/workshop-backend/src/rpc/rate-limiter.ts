/** Counts events per key in a sliding one-minute window; `take()` says whether one more is allowed. */
export class RateLimiter {
  readonly #events = new Map<string, number[]>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `take()` would allow one more now, without counting it. */
  allows(key = ""): boolean {
    const now = this.now();
    return (this.#events.get(key) ?? []).filter((at) => now - at < 60_000).length < this.perMinute;
  }

  take(key = ""): boolean {
    const now = this.now();
    const recent = (this.#events.get(key) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= this.perMinute) {
      this.#events.set(key, recent);
      return false;
    }
    recent.push(now);
    this.#events.set(key, recent);
    // Bounded memory: keys whose windows emptied are dropped now and then.
    if (this.#events.size > 10_000) {
      for (const [k, times] of this.#events) if (times.every((at) => now - at >= 60_000)) this.#events.delete(k);
    }
    return true;
  }
}
