import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { createRunRegistry } from "./run-registry.ts";
import { newRunState } from "./run-state.ts";

const ids = (runs: { id: string }[]) => runs.map((run) => run.id);

describe("createRunRegistry", () => {
  it("gives a call the run whose async context it runs in, across awaits", async () => {
    const registry = createRunRegistry();
    const a = newRunState("a", null);
    const b = newRunState("b", null);
    registry.begin(a);
    registry.begin(b);
    const seen = await Promise.all([
      registry.within(a, async () => {
        await new Promise((done) => setTimeout(done, 5));
        return ids(registry.current());
      }),
      registry.within(b, async () => ids(registry.current())),
    ]);
    expect(seen).toEqual([["a"], ["b"]]);
  });

  it("gives a call without context the one active run, and none while several or none are active", () => {
    const registry = createRunRegistry();
    const a = newRunState("a", null);
    const b = newRunState("b", null);
    expect(registry.current()).toEqual([]);
    registry.begin(a);
    expect(ids(registry.current())).toEqual(["a"]);
    registry.begin(b);
    expect(registry.current()).toEqual([]);
    registry.end(a);
    expect(ids(registry.current())).toEqual(["b"]);
    registry.end(b);
    expect(registry.current()).toEqual([]);
  });

  it("keeps working when the gadget replaces AsyncLocalStorage's methods afterwards", () => {
    const registry = createRunRegistry();
    const a = newRunState("a", null);
    const { getStore, run } = AsyncLocalStorage.prototype;
    AsyncLocalStorage.prototype.getStore = () => newRunState("forged", null);
    AsyncLocalStorage.prototype.run = <R>(_store: unknown, callback: () => R) => callback();
    try {
      expect(registry.within(a, () => ids(registry.current()))).toEqual(["a"]);
    } finally {
      AsyncLocalStorage.prototype.getStore = getStore;
      AsyncLocalStorage.prototype.run = run;
    }
  });
});
