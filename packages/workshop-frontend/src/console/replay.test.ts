import type { RunEvent } from "@gadgets/workshop-shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConsoleStore } from "./console-store.ts";
import { replayRun } from "./replay.ts";

const log = (t: number): RunEvent => ({
  type: "log",
  runId: "r",
  seq: t,
  t,
  level: "log",
  values: [{ t: "number", v: t }],
});

describe("replayRun", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("replaces the console with the run's header, then adds each event at its recorded time", () => {
    const store = new ConsoleStore();
    store.startRun("old", "before");
    const onDone = vi.fn();
    replayRun(store, { runId: "r", name: "echo", events: [log(10), log(250)] }, onDone);
    expect(store.all().map((entry) => entry.kind)).toEqual(["run-start"]);
    vi.advanceTimersByTime(10);
    expect(store.all()).toHaveLength(2);
    expect(onDone).not.toHaveBeenCalled();
    vi.advanceTimersByTime(240);
    expect(store.all()).toHaveLength(3);
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("is done at once for a run without events", () => {
    const onDone = vi.fn();
    replayRun(new ConsoleStore(), { runId: "r", name: "echo", events: [] }, onDone);
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("adds nothing more once stopped", () => {
    const store = new ConsoleStore();
    const onDone = vi.fn();
    const stop = replayRun(store, { runId: "r", name: "echo", events: [log(10), log(20)] }, onDone);
    vi.advanceTimersByTime(10);
    stop();
    vi.advanceTimersByTime(100);
    expect(store.all()).toHaveLength(2);
    expect(onDone).not.toHaveBeenCalled();
  });
});
