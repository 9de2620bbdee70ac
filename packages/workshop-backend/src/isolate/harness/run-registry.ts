/**
 * Which run a console call belongs to. Warm isolates serve concurrent runs of the same code: each
 * run travels in async context, and output without one (say, an unhandled rejection) belongs to the
 * one active run; with several in flight it cannot be attributed, and is dropped rather than shown to
 * the wrong run.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { RunState } from "./run-state.ts";

// Taken when the harness loads, and only ever called through these bindings: a gadget that replaces
// the prototype's methods changes nothing here.
const apply = Reflect.apply;
const storeOf = AsyncLocalStorage.prototype.getStore;
const runWithin = AsyncLocalStorage.prototype.run;

export interface RunRegistry {
  /** The runs a console call made now belongs to: its own, or the only one active, or none. */
  current(): RunState[];
  begin(run: RunState): void;
  end(run: RunState): void;
  /** Runs `work` with `run` as its async context. */
  within<T>(run: RunState, work: () => T): T;
}

export function createRunRegistry(): RunRegistry {
  const context = new AsyncLocalStorage<RunState>();
  // A plain object, so no prototype method the gadget could replace is called.
  const active: Record<string, RunState> = Object.create(null);
  let activeCount = 0;

  return {
    current() {
      const run: RunState | undefined = apply(storeOf, context, []);
      if (run) return [run];
      if (activeCount !== 1) return [];
      for (const id in active) return [active[id] as RunState];
      return [];
    },
    begin(run) {
      active[run.id] = run;
      activeCount++;
    },
    end(run) {
      delete active[run.id];
      activeCount--;
    },
    within(run, work) {
      return apply(runWithin, context, [run, work]);
    },
  };
}
