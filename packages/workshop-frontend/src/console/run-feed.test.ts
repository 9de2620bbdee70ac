import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { ConsoleStore } from "./console-store.ts";
import { RunFeed, showRecordedRun } from "./run-feed.ts";

const status = (runId: string): RunEvent => ({ type: "status", runId, seq: 0, t: 0, status: "queued" });
const log = (runId: string, seq: number): RunEvent => ({
  type: "log",
  runId,
  seq,
  t: seq,
  level: "log",
  values: [{ t: "number", v: seq }],
});
const outcome: RunOutcome = {
  status: "error",
  runId: "r9",
  kind: "invalid",
  message: "gadget.json: no entry",
  timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 4 },
};

const kinds = (store: ConsoleStore) => store.all().map((entry) => `${entry.kind}:${entry.runId}`);

describe("RunFeed", () => {
  it("starts the run in the console on its first event, once, then adds every event", () => {
    const store = new ConsoleStore();
    const feed = new RunFeed(store, "echo");
    expect(feed.runId).toBeUndefined();
    for (const event of [status("r1"), log("r1", 1), log("r1", 2)]) feed.onEvent(event);
    expect(feed.runId).toBe("r1");
    expect(kinds(store)).toEqual(["run-start:r1", "log:r1", "log:r1"]);
    expect(store.all()[0]).toMatchObject({ name: "echo" });
  });

  it("works as a bare listener", () => {
    const store = new ConsoleStore();
    const { onEvent } = new RunFeed(store, "echo");
    onEvent(log("r1", 1));
    expect(kinds(store)).toEqual(["run-start:r1", "log:r1"]);
  });

  it("shows a run that ended before any event with its outcome", () => {
    const store = new ConsoleStore();
    const feed = new RunFeed(store, "echo");
    feed.finish(outcome);
    expect(kinds(store)).toEqual(["run-start:r9", "end:r9"]);
    expect(feed.runId).toBe("r9");
  });

  it("adds nothing at the finish of a run whose events came", () => {
    const store = new ConsoleStore();
    const feed = new RunFeed(store, "echo");
    feed.onEvent(log("r1", 1));
    feed.finish({ ...outcome, runId: "r1" });
    expect(kinds(store)).toEqual(["run-start:r1", "log:r1"]);
  });
});

describe("showRecordedRun", () => {
  it("adds a recorded run's header and events", () => {
    const store = new ConsoleStore();
    showRecordedRun(store, { runId: "r2", name: "echo", events: [log("r2", 1), log("r2", 2)] });
    expect(kinds(store)).toEqual(["run-start:r2", "log:r2", "log:r2"]);
  });
});
