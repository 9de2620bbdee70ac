/**
 * The listener plumbing of the IDE's framework-free stores, written once: React reads a store through
 * `useSyncExternalStore(store.subscribe, …)`, and the store calls `notify()` when it changed.
 */
export class Subscribable {
  readonly #listeners = new Set<() => void>();

  /** Adds a listener; returns the function that removes it. A stable arrow, so React can keep it. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  };

  protected notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
