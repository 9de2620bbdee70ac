import type { RunEvent, RunOutcome } from "@gadgets/workshop-shared/api";
import {
  MAX_EVENT_BYTES_PER_RUN,
  MAX_EVENTS_PER_RUN,
  MAX_STORED_EVENTS_PER_RUN,
  RUN_END_DELIVERY_MS,
} from "@gadgets/workshop-shared/limits";
import { describe, expect, it, vi } from "vitest";
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
    // The record's count is of what it lacks: the one the stream dropped and the ones it left out.
    const kept = events.stored.filter((event) => event.type === "log").length;
    expect(events.stored.at(-2)).toMatchObject({ type: "dropped", count: MAX_EVENTS_PER_RUN + 1 - kept });
  });

  it("delivers exactly MAX_EVENTS_PER_RUN events without a dropped notice", async () => {
    const { events, received } = stream();
    for (let i = 0; i < MAX_EVENTS_PER_RUN; i++) events.emit(log);
    await events.end(outcome);
    expect(received.some((event) => event.type === "dropped")).toBe(false);
    // The record kept fewer: it says how many it left out, and still ends with the outcome.
    const kept = events.stored.filter((event) => event.type === "log").length;
    expect(events.stored.at(-2)).toMatchObject({ type: "dropped", count: MAX_EVENTS_PER_RUN - kept });
    expect(events.stored.at(-1)).toMatchObject({ type: "end" });
    expect(events.stored).toHaveLength(MAX_STORED_EVENTS_PER_RUN);
  });

  it("delivers nothing after the end event", async () => {
    const { events, received } = stream();
    await events.end(outcome);
    events.emit(log);
    events.status("running");
    expect(received.map((event) => event.type)).toEqual(["end"]);
  });

  it("waits for the caller to take the end event, but no longer than RUN_END_DELIVERY_MS", async () => {
    vi.useFakeTimers();
    try {
      let take: () => void = () => {};
      const slow = new RunEventStream(
        "r",
        0,
        (event) => (event.type === "end" ? new Promise<void>((done) => (take = done)) : undefined),
        () => 1,
      );
      let ended = false;
      void slow.end(outcome).then(() => (ended = true));
      await vi.advanceTimersByTimeAsync(RUN_END_DELIVERY_MS - 1);
      expect(ended).toBe(false);
      take();
      await vi.advanceTimersByTimeAsync(0);
      expect(ended).toBe(true);

      const never = new RunEventStream(
        "r",
        0,
        () => new Promise(() => {}),
        () => 1,
      );
      let gaveUp = false;
      void never.end(outcome).then(() => (gaveUp = true));
      await vi.advanceTimersByTimeAsync(RUN_END_DELIVERY_MS - 1);
      expect(gaveUp).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(gaveUp).toBe(true);
    } finally {
      vi.useRealTimers();
    }
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

  it("delivers events up to exactly MAX_EVENT_BYTES_PER_RUN of text and drops the one past it", async () => {
    const { events, received } = stream();
    const text = (chars: number): RunEventBody => ({
      type: "log",
      level: "log",
      values: [{ t: "string", v: "x".repeat(chars) }],
    });
    const overhead = JSON.stringify(text(0)).length;
    const chunk = 100_000;
    let sent = 0;
    while (MAX_EVENT_BYTES_PER_RUN - sent >= chunk) {
      events.emit(text(chunk - overhead));
      sent += chunk;
    }
    events.emit(text(MAX_EVENT_BYTES_PER_RUN - sent - overhead));
    expect(events.accepting).toBe(false);
    events.emit(text(0));
    events.refuse();
    await events.end(outcome);
    const logs = received.filter((event) => event.type === "log");
    expect(logs).toHaveLength(Math.ceil(MAX_EVENT_BYTES_PER_RUN / chunk));
    expect(received.find((event) => event.type === "dropped")).toMatchObject({ count: 2 });
  });
});
