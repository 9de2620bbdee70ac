import type { ExecuteResult } from "../protocol.ts";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ActiveRun, ActiveRuns } from "./active-runs.ts";
import { RunEventRelay } from "./event-relay.ts";
import type { Slot } from "./runner-slots.ts";
import { FakeRunner } from "../testing/fake-runner.ts";

function slotOf(runner: FakeRunner): Slot {
  return {
    id: 1,
    runner,
    state: { kind: "serving", owner: "w1", assigned: Promise.resolve(true) },
    runs: new Set<string>(),
    served: 0,
    freshRss: 0,
    baselineRss: 0,
    idleSince: 0,
    idleRss: 0,
    niced: false,
  };
}

const sink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };

function harness() {
  const killed: Slot[] = [];
  const demoted: Slot[] = [];
  const runs = new ActiveRuns({
    kill: (slot) => {
      killed.push(slot);
      (slot.runner as FakeRunner).killed = true;
    },
    demoted: (slot) => demoted.push(slot),
  });
  const start = (slot: Slot, runId: string, timeoutMs: number) => {
    const outcome: { result?: ExecuteResult } = {};
    const active: ActiveRun = {
      runId,
      slot,
      relay: new RunEventRelay(sink, 100),
      hung: false,
      settle: (result) => {
        outcome.result = result;
      },
    };
    slot.runs.add(runId);
    runs.add(active, timeoutMs);
    return { active, outcome };
  };
  return { runs, killed, demoted, start };
}

describe("ActiveRuns", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ends a run alone on its runner at its deadline, with the runner", async () => {
    const { runs, killed, start } = harness();
    const slot = slotOf(new FakeRunner(() => {}));
    const { outcome } = start(slot, "r1", 300);
    await vi.advanceTimersByTimeAsync(299);
    expect(outcome.result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome.result).toMatchObject({ kind: "timeout", message: expect.stringMatching(/300 ms/) });
    expect(killed).toEqual([slot]);
    expect(runs.size).toBe(1); // until its caller removes it
  });

  it("gives up only the overrunning run on a runner that still answers", async () => {
    const { killed, start } = harness();
    const slot = slotOf(new FakeRunner(() => {}));
    const late = start(slot, "late", 100);
    const other = start(slot, "other", 5000);
    await vi.advanceTimersByTimeAsync(100);
    expect(late.outcome.result).toMatchObject({ kind: "timeout" });
    expect(other.outcome.result).toBeUndefined();
    expect(killed).toEqual([]);
  });

  it("kills a runner that does not answer, and ends the runs beside the culprit naming it", async () => {
    const { killed, start } = harness();
    const runner = new FakeRunner(() => {});
    const slot = slotOf(runner);
    const spinner = start(slot, "spinner", 100);
    const other = start(slot, "other", 5000);
    runner.blocked = true;
    await vi.advanceTimersByTimeAsync(120);
    expect(spinner.outcome.result).toMatchObject({ kind: "timeout" });
    expect(other.outcome.result).toMatchObject({
      kind: "cancelled",
      message: expect.stringMatching(/Stopped together with run spinner/),
    });
    expect(killed).toEqual([slot]);
  });

  it("demotes a runner whose run burns CPU and does not answer, not one that waits", async () => {
    const { demoted, start } = harness();
    const spinning = new FakeRunner(() => {});
    const waiting = new FakeRunner(() => {});
    const spinningSlot = slotOf(spinning);
    start(spinningSlot, "spin", 5000);
    start(slotOf(waiting), "wait", 5000);
    spinning.cpu = 100;
    spinning.blocked = true;
    await vi.advanceTimersByTimeAsync(60);
    expect(demoted).toEqual([spinningSlot]);
    expect(spinningSlot.niced).toBe(true);
  });

  it("does not end a second time a run that ended by itself while its runner was being asked", async () => {
    const { runs, killed, start } = harness();
    const runner = new FakeRunner(() => {});
    const slot = slotOf(runner);
    const { active, outcome } = start(slot, "r1", 5000);
    start(slot, "other", 5000);
    runner.blocked = true;
    const ending = runs.end(active, { status: "error", kind: "cancelled", message: "Cancelled." });
    // Its end line is read while the pool waits for the runner to answer.
    runs.remove(active);
    await vi.advanceTimersByTimeAsync(20);
    await ending;
    expect(outcome.result).toBeUndefined();
    expect(killed).toEqual([]);
  });

  it("stops a removed run's timers", async () => {
    const { runs, killed, start } = harness();
    const slot = slotOf(new FakeRunner(() => {}));
    const { active, outcome } = start(slot, "r1", 100);
    expect(runs.remove(active)).toBe(true);
    expect(runs.remove(active)).toBe(false);
    await vi.advanceTimersByTimeAsync(500);
    expect(outcome.result).toBeUndefined();
    expect(killed).toEqual([]);
  });
});
