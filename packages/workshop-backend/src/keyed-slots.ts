/**
 * At most N pieces of work per key (a workspace) at once in this Worker isolate, refused past that
 * rather than queued: one workspace resolving huge trees, or one endpoint's callers holding runs, takes
 * its own slots only, never another workspace's.
 */

export class KeyedSlots {
  readonly #running = new Map<string, number>();

  constructor(private readonly perKey: number) {}

  /** A release function, or undefined when `key` already holds its share. */
  enter(key: string): (() => void) | undefined {
    const running = this.#running.get(key) ?? 0;
    if (running >= this.perKey) return undefined;
    this.#running.set(key, running + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#running.get(key) ?? 1) - 1;
      if (left === 0) this.#running.delete(key);
      else this.#running.set(key, left);
    };
  }
}
