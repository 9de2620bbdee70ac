import { describe, expect, it } from "vitest";
import { createInFlightTracker, messageId } from "./node-websocket.ts";

describe("messageId", () => {
  it("reads the id of pull, resolve and reject messages only", () => {
    expect(messageId('["pull",3]', "pull")).toBe(3);
    expect(messageId('["resolve",12,"x"]', "resolve")).toBe(12);
    expect(messageId('["reject",-1,["error","Error","x"]]', "reject")).toBe(-1);
    expect(messageId('["push",["pipeline",0,["getSession"]]]', "pull")).toBeUndefined();
    expect(messageId('["pull","x"]', "pull")).toBeUndefined();
  });
});

describe("createInFlightTracker", () => {
  it("holds while a pull waits and lets go when the last one is answered", () => {
    const holds: boolean[] = [];
    const tracker = createInFlightTracker((busy) => holds.push(busy));
    tracker.sent('["push",["pipeline",0,["ping"]]]');
    expect(holds).toEqual([]);
    tracker.sent('["pull",1]');
    tracker.sent('["pull",2]');
    tracker.received('["resolve",1,"pong"]');
    expect(holds).toEqual([true]);
    tracker.received('["reject",2,["error","Error","no"]]');
    expect(holds).toEqual([true, false]);
  });

  it("ignores answers to pulls it never saw and lets go when the socket closes", () => {
    const holds: boolean[] = [];
    const tracker = createInFlightTracker((busy) => holds.push(busy));
    tracker.received('["resolve",9,1]');
    tracker.sent('["pull",4]');
    tracker.closed();
    expect(holds).toEqual([true, false]);
  });
});
