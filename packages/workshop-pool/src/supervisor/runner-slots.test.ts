import { describe, expect, it } from "vitest";
import { isRetired, ownerOf, RunnerSlots, type Slot } from "./runner-slots.ts";
import { type FakeRunner, fakeRunners } from "../testing/fake-runner.ts";

function slotsWith(options: {
  size: number;
  runsPerRunner?: number;
  runnersPerWorkspace?: number;
  recycleAfterRuns?: number;
}) {
  const runners = fakeRunners();
  const died: Slot[] = [];
  let changes = 0;
  const slots = new RunnerSlots({
    size: options.size,
    runsPerRunner: options.runsPerRunner ?? 2,
    runnersPerWorkspace: options.runnersPerWorkspace ?? 1,
    recycleAfterRuns: options.recycleAfterRuns ?? 100,
    start: runners.start,
    onLine: () => {},
    // A change is the event a test waits on (a runner added, a place freed).
    onChange: () => {
      changes++;
      runners.changed();
    },
    onDied: (slot, _exit, expected) => {
      if (!expected) died.push(slot);
    },
  });
  /** Once a fresh runner is ready to be taken. */
  const freshReady = () => runners.until(() => slots.counts().fresh > 0);
  return { slots, runners, died, changes: () => changes, freshReady };
}

describe("runner slots", () => {
  it("gives each workspace runners of its own and never another workspace's", async () => {
    const { slots } = slotsWith({ size: 2, runsPerRunner: 2 });
    await slots.start();
    const a1 = slots.take("a", "a1");
    const a2 = slots.take("a", "a2");
    expect(a1).toBeDefined();
    expect(a2).toBe(a1);
    // a holds its one runner and it is full: a waits, it does not take b's or the fresh one.
    expect(slots.take("a", "a3")).toBeUndefined();
    const b1 = slots.take("b", "b1");
    expect(b1).toBeDefined();
    expect(b1).not.toBe(a1);
    expect(b1 && ownerOf(b1)).toBe("b");
    // No fresh runner left: c cannot get one while a and b hold theirs.
    expect(slots.take("c", "c1")).toBeUndefined();
    slots.release(a1 as Slot, "a1");
    slots.release(a1 as Slot, "a2");
    expect(a1 && ownerOf(a1)).toBe("a");
    expect(slots.take("c", "c1")).toBeUndefined();
  });

  it("spreads a busy workspace over its share of runners before doubling up; a nested run stays with its caller", async () => {
    const { slots } = slotsWith({ size: 3, runnersPerWorkspace: 2, runsPerRunner: 4 });
    await slots.start();
    const first = slots.take("a", "a1") as Slot;
    const second = slots.take("a", "a2") as Slot;
    expect(second).not.toBe(first);
    expect(slots.take("a", "child", true)).toBe(first);
    // Its share taken, it doubles up on the runner with the fewest runs.
    expect(slots.take("a", "a3")).toBe(second);
    expect(slots.counts().fresh).toBe(1);
  });

  it("lets a nested run join its workspace's full runner (its caller waits there)", async () => {
    const { slots } = slotsWith({ size: 1, runsPerRunner: 1 });
    await slots.start();
    const parent = slots.take("a", "parent");
    expect(slots.take("a", "other")).toBeUndefined();
    expect(slots.take("a", "child", true)).toBe(parent);
    expect(slots.take("b", "child", true)).toBeUndefined();
  });

  it("makes room for a waiting workspace by recycling an idle runner of another; a fresh one replaces it", async () => {
    const { slots, runners, freshReady } = slotsWith({ size: 1 });
    await slots.start();
    const a = slots.take("a", "a1") as Slot;
    slots.release(a, "a1");
    slots.makeRoom(["b"]);
    // Its lane is closed first (a run may be on its way to it), then it is killed.
    (a.runner as FakeRunner).finishClose();
    await runners.until(() => (a.runner as FakeRunner).killed);
    await freshReady();
    expect(runners.alive()).toHaveLength(1);
    const b = slots.take("b", "b1");
    expect(b && ownerOf(b)).toBe("b");
    expect(b?.runner).not.toBe(a.runner);
  });

  it("closes a busy runner of the workspace holding the most, and recycles it when its runs end", async () => {
    const { slots, runners, freshReady } = slotsWith({ size: 2, runnersPerWorkspace: 2, runsPerRunner: 1 });
    await slots.start();
    const first = slots.take("a", "a1") as Slot;
    const second = slots.take("a", "a2") as Slot;
    slots.makeRoom(["b"]);
    const closing = [first, second].filter((slot) => slot.state.kind === "closing");
    expect(closing).toHaveLength(1);
    const victim = closing[0] as Slot;
    slots.release(victim, [...victim.runs][0] as string);
    (victim.runner as FakeRunner).finishClose();
    await runners.until(() => (victim.runner as FakeRunner).killed);
    await freshReady();
    const b = slots.take("b", "b1");
    expect(b && ownerOf(b)).toBe("b");
  });

  it("replaces a runner that died on its own and says so", async () => {
    const { slots, runners, died, freshReady } = slotsWith({ size: 1 });
    await slots.start();
    const a = slots.take("a", "a1") as Slot;
    (a.runner as FakeRunner).die("SIGKILL");
    await freshReady();
    expect(died).toEqual([a]);
    expect(runners.alive()).toHaveLength(1);
    expect(slots.counts()).toMatchObject({ runners: 1, fresh: 1 });
  });

  it("recycles a runner after its quota of runs", async () => {
    const { slots } = slotsWith({ size: 1, recycleAfterRuns: 2 });
    await slots.start();
    const a = slots.take("a", "a1") as Slot;
    slots.release(a, "a1");
    expect(slots.take("a", "a2")).toBe(a);
    slots.release(a, "a2");
    expect(isRetired(a)).toBe(true);
  });

  it("closes a runner that is never idle once it has served its quota, and recycles it when its runs end", async () => {
    const { slots } = slotsWith({ size: 2, recycleAfterRuns: 2, runsPerRunner: 2 });
    await slots.start();
    const a = slots.take("a", "a1") as Slot;
    expect(slots.take("a", "a2")).toBe(a);
    slots.release(a, "a1");
    expect(slots.take("a", "a3")).toBe(a);
    slots.release(a, "a2");
    // Two served, one still running: no new run goes to it.
    expect(a.state.kind).toBe("closing");
    expect(slots.take("a", "a4")).not.toBe(a);
    slots.release(a, "a3");
    expect(isRetired(a)).toBe(true);
  });

  it("keeps a fresh runner ready by recycling one idle long enough, not one still serving", async () => {
    const { slots } = slotsWith({ size: 1 });
    await slots.start();
    const a = slots.take("a", "a1") as Slot;
    slots.keepSpare(0);
    expect(isRetired(a)).toBe(false);
    slots.release(a, "a1");
    slots.keepSpare(60_000);
    expect(isRetired(a)).toBe(false);
    slots.keepSpare(0);
    expect(isRetired(a)).toBe(true);
  });
});
