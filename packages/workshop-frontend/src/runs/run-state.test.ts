import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { ConsoleStore } from "../console/console-store.ts";
import { RunFeed } from "../console/run-feed.ts";
import { type RunState, trackRun } from "./run-state.ts";

const outcome: RunOutcome = {
  status: "ok",
  runId: "r1",
  result: "Echo: hi",
  timings: { queueMs: 0, buildMs: 1, runMs: 2, totalMs: 3 },
};
const event = (status: "building" | "running"): RunEvent => ({ type: "status", runId: "r1", seq: 0, t: 0, status });
const log: RunEvent = { type: "log", runId: "r1", seq: 1, t: 1, level: "log", values: [{ t: "string", v: "hi" }] };

function track(start: Parameters<typeof trackRun>[0]) {
  const states: RunState[] = [];
  const store = new ConsoleStore();
  const feed = new RunFeed(store, "echo");
  const done = trackRun(start, feed, { startedAt: 7, onState: (state) => states.push(state) });
  return { states, store, feed, done };
}

describe("trackRun", () => {
  it("reports queued once asked, each phase as it streams, then the outcome; the events reach the console", async () => {
    let asked = false;
    const { states, store, feed, done } = track(async (onEvent) => {
      asked = true;
      await Promise.resolve();
      for (const next of [event("building"), event("running"), log]) onEvent(next);
      return outcome;
    });
    expect(asked).toBe(true);
    expect(await done).toBe(outcome);
    expect(states).toEqual([
      { status: "running", startedAt: 7, phase: "queued" },
      { status: "running", runId: "r1", startedAt: 7, phase: "building" },
      { status: "running", runId: "r1", startedAt: 7, phase: "running" },
      { status: "done", outcome },
    ]);
    expect(feed.runId).toBe("r1");
    expect(store.all().map((entry) => entry.kind)).toEqual(["run-start", "log"]);
  });

  it("reports a run that could not be asked for as failed, with why", async () => {
    const { states, done } = track(async () => {
      throw new Error("The connection is closed.");
    });
    expect(await done).toBeUndefined();
    expect(states.at(-1)).toEqual({ status: "failed", message: "The connection is closed." });
  });

  it("reports a request that throws at once as failed too", async () => {
    const { states, done } = track(() => {
      throw new TypeError("bad payload");
    });
    expect(await done).toBeUndefined();
    expect(states).toEqual([{ status: "failed", message: "bad payload" }]);
  });

  it("still shows a run that ended without events in the console", async () => {
    const { store, done } = track(async () => outcome);
    await done;
    expect(store.all().map((entry) => entry.kind)).toEqual(["run-start", "end"]);
  });
});
