import type { IsolateEvent, IsolateEventSink } from "../protocol.ts";
import { DROPPED_TALLY_EVERY } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DROPPED_SEND_EVERY_MS, MAX_EVENTS_PER_BATCH, RunEventRelay } from "./event-relay.ts";

function sink() {
  const batches: IsolateEvent[][] = [];
  const dropped: number[] = [];
  const target: IsolateEventSink = {
    started: () => {},
    log: () => {},
    error: () => {},
    events: (batch) => batches.push(batch),
    dropped: (total) => dropped.push(total),
  };
  return { target, batches, dropped };
}

const log = (i: number) => `"log",["log",[{"t":"number","v":${i}}]]]`;

// The relay sends what it read in one turn of the event loop from a setImmediate: faked, a test ends
// the turn itself (`endTurn`) instead of waiting for the real one.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setImmediate"] });
});
afterEach(() => {
  vi.useRealTimers();
});
const endTurn = () => vi.runOnlyPendingTimers();

describe("the event relay", () => {
  it("sends lines read in one turn as one batch, and a long backlog in batches of at most the batch size", async () => {
    const { target, batches } = sink();
    const relay = new RunEventRelay(target, 10_000);
    for (let i = 0; i < 3; i++) relay.push(log(i));
    expect(batches).toHaveLength(0);
    endTurn();
    expect(batches.map((batch) => batch.length)).toEqual([3]);
    for (let i = 0; i < MAX_EVENTS_PER_BATCH + 1; i++) relay.push(log(i));
    endTurn();
    expect(batches.slice(1).map((batch) => batch.length)).toEqual([MAX_EVENTS_PER_BATCH, 1]);
  });

  it("forwards a line's layout when it has one", () => {
    const { target, batches } = sink();
    const relay = new RunEventRelay(target, 10);
    relay.push(`"log",["log",[{"t":"string","v":"g"}],{"depth":1,"group":"open"}]]`);
    relay.push(log(1));
    relay.flush();
    expect(batches.flat()).toEqual([
      { kind: "log", level: "log", values: [{ t: "string", v: "g" }], layout: { depth: 1, group: "open" } },
      { kind: "log", level: "log", values: [{ t: "number", v: 1 }] },
    ]);
  });

  it("forwards up to its line cap and nothing past it", () => {
    const { target, batches } = sink();
    const relay = new RunEventRelay(target, 5);
    for (let i = 0; i < 6; i++) relay.push(log(i));
    relay.flush();
    expect(batches.flat()).toHaveLength(5);
  });

  it("sends only the latest dropped tally of a turn, past the cap too, and what it has when closed", () => {
    const { target, dropped } = sink();
    const relay = new RunEventRelay(target, 1);
    for (let total = 100; total <= 5000; total += 100) relay.push(`"dropped",[${total}]]`);
    relay.flush();
    relay.push(`"dropped",[5100]]`);
    relay.close();
    relay.push(`"dropped",[5200]]`);
    relay.flush();
    expect(dropped).toEqual([5000, 5100]);
  });

  it("takes the isolate's tallies as they are: the first drop, then every DROPPED_TALLY_EVERY", () => {
    const { target, dropped } = sink();
    const relay = new RunEventRelay(target, 1);
    for (const total of [1, DROPPED_TALLY_EVERY, 2 * DROPPED_TALLY_EVERY]) relay.push(`"dropped",[${total}]]`);
    relay.flush();
    expect(dropped).toEqual([2 * DROPPED_TALLY_EVERY]);
  });

  it(`counts the nth tally line as at most n × ${DROPPED_TALLY_EVERY} drops, however much it claims`, () => {
    const { target, dropped } = sink();
    const relay = new RunEventRelay(target, 1);
    relay.push(`"dropped",[999999999]]`);
    relay.flush();
    relay.push(`"dropped",[${2 * DROPPED_TALLY_EVERY}]]`);
    relay.flush();
    relay.push(`"dropped",[${3 * DROPPED_TALLY_EVERY + 1}]]`);
    relay.flush();
    expect(dropped).toEqual([DROPPED_TALLY_EVERY, 2 * DROPPED_TALLY_EVERY, 3 * DROPPED_TALLY_EVERY]);
  });

  it("sends a flooding run's tally at most every DROPPED_SEND_EVERY_MS while it runs, and the latest at the end", async () => {
    const { target, dropped } = sink();
    let now = 0;
    const relay = new RunEventRelay(target, 1, () => now);
    relay.push(`"dropped",[100]]`);
    endTurn();
    for (let total = 200; total <= 1000; total += 100) {
      now += 10;
      relay.push(`"dropped",[${total}]]`);
      endTurn();
    }
    expect(dropped).toEqual([100]);
    now = DROPPED_SEND_EVERY_MS;
    relay.push(`"dropped",[1100]]`);
    endTurn();
    expect(dropped).toEqual([100, 1100]);
    now += 1;
    relay.push(`"dropped",[1200]]`);
    relay.close();
    expect(dropped).toEqual([100, 1100, 1200]);
  });

  it("ignores lines that are not events, and knows when the run's last line is in", async () => {
    const { target, batches } = sink();
    const relay = new RunEventRelay(target, 10);
    relay.push(`"log",not json`);
    relay.push(`"other",[1]]`);
    relay.push(`"done",0]`);
    await relay.done;
    relay.flush();
    expect(batches).toEqual([]);
  });
});
