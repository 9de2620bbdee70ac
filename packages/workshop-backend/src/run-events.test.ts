import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared/api";
import { MAX_EVENTS_PER_RUN, MAX_STORED_EVENTS_PER_RUN } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { type RunEventBody, RunEventStream } from "./run-events.ts";

const outcome: RunOutcome = {
  status: "ok",
  runId: "r",
  result: null,
  timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 0 },
};
const log: RunEventBody = { type: "log", level: "log", values: [{ t: "number", v: 1 }] };

function stream() {
  const received: RunEvent[] = [];
  let now = 1000;
  const events = new RunEventStream(
    "r",
    1000,
    (event) => void received.push(event),
    () => (now += 5),
  );
  return { events, received };
}

describe("RunEventStream", () => {
  it("numbers events, stamps them relative to the start and ends with end", async () => {
    const { events, received } = stream();
    events.status("running");
    events.emit(log);
    await events.end(outcome);
    expect(received.map((event) => [event.type, event.seq])).toEqual([
      ["status", 0],
      ["log", 1],
      ["end", 2],
    ]);
    expect(received.every((event) => event.t > 0 && event.runId === "r")).toBe(true);
  });

  it("delivers MAX_EVENTS_PER_RUN events and counts one more as dropped", async () => {
    const { events, received } = stream();
    for (let i = 0; i < MAX_EVENTS_PER_RUN + 1; i++) events.emit(log);
    await events.end(outcome);
    expect(received.filter((event) => event.type === "log")).toHaveLength(MAX_EVENTS_PER_RUN);
    expect(received.at(-2)).toMatchObject({ type: "dropped", count: 1 });
    expect(events.stored).toHaveLength(MAX_STORED_EVENTS_PER_RUN);
  });

  it("delivers exactly MAX_EVENTS_PER_RUN events without a dropped notice", async () => {
    const { events, received } = stream();
    for (let i = 0; i < MAX_EVENTS_PER_RUN; i++) events.emit(log);
    await events.end(outcome);
    expect(received.some((event) => event.type === "dropped")).toBe(false);
  });

  it("delivers nothing after the end event", async () => {
    const { events, received } = stream();
    await events.end(outcome);
    events.emit(log);
    events.status("running");
    expect(received.map((event) => event.type)).toEqual(["end"]);
  });

  it("keeps going when the listener throws (a caller that went away)", async () => {
    const events = new RunEventStream(
      "r",
      0,
      () => {
        throw new Error("gone");
      },
      () => 1,
    );
    events.emit(log);
    await expect(events.end(outcome)).resolves.toBeUndefined();
  });
});
