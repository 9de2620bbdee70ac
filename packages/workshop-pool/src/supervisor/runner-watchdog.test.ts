import { describe, expect, it } from "vitest";
import { ownerOf, RunnerSlots, type Slot } from "./runner-slots.ts";
import { RunnerWatchdog } from "./runner-watchdog.ts";
import { type FakeRunner, fakeRunners } from "../testing/fake-runner.ts";

const MB = 1024 * 1024;

async function setup() {
  const runners = fakeRunners();
  const slots = new RunnerSlots({
    size: 2,
    runsPerRunner: 2,
    runnersPerWorkspace: 1,
    recycleAfterRuns: 100,
    start: runners.start,
    onLine: () => {},
    onChange: () => {},
    onDied: () => {},
  });
  await slots.start();
  const heard: string[] = [];
  const watchdog = new RunnerWatchdog({
    memoryLimitBytes: 128 * MB,
    onRunMemory: (slot, grown) => heard.push(`run-memory ${ownerOf(slot)} ${Math.round(grown / MB)}`),
    onIdleSpin: (slot, share) => heard.push(`idle-spin ${ownerOf(slot)} ${share.toFixed(1)}`),
    onIdleMemory: (slot, grown) => heard.push(`idle-memory ${ownerOf(slot)} ${Math.round(grown / MB)}`),
    onIdleFull: (slot, held) => heard.push(`idle-full ${ownerOf(slot)} ${Math.round(held / MB)}`),
  });
  return { slots, watchdog, heard };
}

describe("the runner watchdog", () => {
  it("hears of a run that grew its runner past the limit, counted from when its runs began", async () => {
    const { slots, watchdog, heard } = await setup();
    const slot = slots.take("a", "a1") as Slot;
    const runner = slot.runner as FakeRunner;
    runner.rssBytes += 128 * MB;
    watchdog.sampleActive(slots.all());
    expect(heard).toEqual([]);
    runner.rssBytes += 1 * MB;
    watchdog.sampleActive(slots.all());
    expect(heard).toEqual(["run-memory a 129"]);
  });

  it("hears of a runner spinning with no run once it has spun long enough, not before", async () => {
    const { slots, watchdog, heard } = await setup();
    const slot = slots.take("a", "a1") as Slot;
    slots.release(slot, "a1");
    const runner = slot.runner as FakeRunner;
    const t = slot.idleSince;
    watchdog.sampleIdle(slots.all(), t + 100);
    for (let at = t + 200; at <= t + 500; at += 100) {
      runner.cpu += 90;
      watchdog.sampleIdle(slots.all(), at);
    }
    expect(heard).toEqual([]);
    runner.cpu += 90;
    watchdog.sampleIdle(slots.all(), t + 600);
    expect(heard).toEqual(["idle-spin a 0.9"]);
  });

  it("does not count a runner with a run, or a fresh one, as spinning", async () => {
    const { slots, watchdog, heard } = await setup();
    const busy = slots.take("a", "a1") as Slot;
    const fresh = slots.all().find((slot) => ownerOf(slot) === undefined) as Slot;
    const t = Date.now();
    for (let at = t; at <= t + 2000; at += 100) {
      (busy.runner as FakeRunner).cpu += 100;
      (fresh.runner as FakeRunner).cpu += 100;
      watchdog.sampleIdle(slots.all(), at);
    }
    expect(heard).toEqual([]);
  });

  it("hears of a runner that grew past a run's limit after its runs had ended: work left behind", async () => {
    const { slots, watchdog, heard } = await setup();
    const slot = slots.take("b", "b1") as Slot;
    slots.release(slot, "b1");
    (slot.runner as FakeRunner).rssBytes += 320 * MB;
    watchdog.sampleIdle(slots.all(), slot.idleSince + 100);
    watchdog.sampleIdle(slots.all(), slot.idleSince + 200);
    expect(heard).toEqual(["idle-memory b 320"]);
  });

  it("tells a runner full, not at fault, when its runs left it holding past the limit", async () => {
    const { slots, watchdog, heard } = await setup();
    const slot = slots.take("c", "c1") as Slot;
    const runner = slot.runner as FakeRunner;
    // Many versions run one after another, each leaving a warm isolate behind.
    for (let i = 2; i <= 60; i++) {
      runner.rssBytes += 2.5 * MB;
      slots.release(slot, `c${i - 1}`);
      slots.take("c", `c${i}`);
    }
    runner.rssBytes += 2.5 * MB;
    slots.release(slot, "c60");
    watchdog.sampleIdle(slots.all(), slot.idleSince + 100);
    watchdog.sampleIdle(slots.all(), slot.idleSince + 200);
    expect(heard).toEqual(["idle-full c 150"]);
    // Grown by more than the limit since then, it is work left behind after all.
    runner.rssBytes += 129 * MB;
    watchdog.sampleIdle(slots.all(), slot.idleSince + 300);
    expect(heard.at(-1)).toBe("idle-memory c 129");
  });
});
