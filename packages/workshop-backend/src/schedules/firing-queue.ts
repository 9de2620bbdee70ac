/**
 * Firings of one workspace's schedules, run a few at a time: a burst of thousands due in the same
 * minute goes through `limit` at once, in the order it came due. A key (one schedule) counts as busy
 * from the moment its firing is queued until it ends, so a schedule never has two firings at once.
 */

export class FiringQueue {
  readonly #waiting: { key: string; task: () => Promise<unknown> }[] = [];
  readonly #busy = new Set<string>();
  #running = 0;

  constructor(private readonly limit: number) {}

  /** Whether the key's firing is queued or running. */
  busy(key: string): boolean {
    return this.#busy.has(key);
  }

  /** Firings queued or running. */
  get size(): number {
    return this.#busy.size;
  }

  /** Queues the key's firing; false (and nothing queued) when the key is busy. */
  add(key: string, task: () => Promise<unknown>): boolean {
    if (this.#busy.has(key)) return false;
    this.#busy.add(key);
    this.#waiting.push({ key, task });
    this.#pump();
    return true;
  }

  #pump(): void {
    while (this.#running < this.limit) {
      const next = this.#waiting.shift();
      if (!next) return;
      this.#running++;
      // A task's failure is its own (the dispatcher records it); the queue goes on.
      void Promise.resolve()
        .then(next.task)
        .catch(() => undefined)
        .finally(() => {
          this.#running--;
          this.#busy.delete(next.key);
          this.#pump();
        });
    }
  }
}
