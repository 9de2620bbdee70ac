import { describe, expect, it } from "vitest";
import { FiringQueue } from "./firing-queue.ts";

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const settle = () => new Promise((done) => setTimeout(done, 0));

describe("FiringQueue", () => {
  it("runs at most `limit` firings at once, the rest in the order they came due", async () => {
    const queue = new FiringQueue(2);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred>>();
    for (const key of ["a", "b", "c", "d"]) {
      const gate = deferred();
      gates.set(key, gate);
      queue.add(key, async () => {
        started.push(key);
        await gate.promise;
      });
    }
    await settle();
    expect(started).toEqual(["a", "b"]);
    gates.get("b")?.resolve();
    await settle();
    expect(started).toEqual(["a", "b", "c"]);
    gates.get("a")?.resolve();
    gates.get("c")?.resolve();
    await settle();
    expect(started).toEqual(["a", "b", "c", "d"]);
    gates.get("d")?.resolve();
    await settle();
    expect(queue.size).toBe(0);
  });

  it("keeps a key busy while queued or running: a schedule never has two firings", async () => {
    const queue = new FiringQueue(1);
    const gate = deferred();
    expect(queue.add("x", () => gate.promise)).toBe(true);
    expect(queue.add("y", async () => {})).toBe(true);
    expect(queue.busy("y")).toBe(true);
    expect(queue.add("x", async () => {})).toBe(false);
    gate.resolve();
    await settle();
    await settle();
    expect(queue.busy("x")).toBe(false);
    expect(queue.busy("y")).toBe(false);
  });

  it("goes on after a firing that fails", async () => {
    const queue = new FiringQueue(1);
    queue.add("bad", async () => {
      throw new Error("boom");
    });
    let ran = false;
    queue.add("good", async () => {
      ran = true;
    });
    await settle();
    await settle();
    expect(ran).toBe(true);
  });
});
