/**
 * Waiting in the pool's unit tests for a state the code under test reaches through events: a check is
 * tried again each time one of those events fires (a fake runner started, given a job, killed; the pool
 * telling a listener something), never after a counted number of turns of the event loop.
 */
export class Conditions {
  readonly #waiting = new Set<() => void>();

  /** Resolves with what `check` returns once it is truthy: now, or at the first `changed()` after which it is. */
  until<T>(check: () => T | undefined | null | false): Promise<T> {
    const now = check();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const retry = () => {
        const value = check();
        if (!value) return;
        this.#waiting.delete(retry);
        resolve(value);
      };
      this.#waiting.add(retry);
    });
  }

  /** One of the events a condition may wait on has fired: every waiting check is tried again. */
  changed(): void {
    for (const retry of [...this.#waiting]) retry();
  }
}
