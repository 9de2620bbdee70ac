/**
 * The console a gadget gets behaves as in browsers: timers with durations, counters, assert, trace,
 * groups that nest what follows, tables.
 */

import type { EncodedValue, RunEvent, RunRecord } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectNewWorkspace, eventCollector, gadget } from "./helpers.ts";

let ws: Connected;
beforeAll(async () => {
  ws = await connectNewWorkspace();
});
afterAll(() => ws.client[Symbol.dispose]());

const text = (values: EncodedValue[]) =>
  values.map((value) => (value.t === "string" ? value.v : JSON.stringify(value))).join(" ");

describe("console methods", () => {
  it("times, counts per run, asserts and traces as browsers do", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default {
  async run() {
    console.time("wait");
    await new Promise((done) => setTimeout(done, 30));
    console.timeLog("wait", "halfway");
    console.timeEnd("wait");
    console.timeEnd("wait");
    console.count();
    console.count();
    console.count("x");
    console.countReset();
    console.count();
    console.assert(1 + 1 === 3, "math is off");
    console.assert(true, "never shown");
    console.group("a group");
    console.table([{ a: 1 }]);
    console.trace("here");
    return "done";
  },
};
`),
    });
    const events = eventCollector();
    for (let run = 0; run < 2; run++) {
      events.events.length = 0;
      expect(await session.runDraft(draft.id, null, events.listener)).toMatchObject({ status: "ok" });
      const lines = events.ofType("log").map((event) => ({ level: event.level, text: text(event.values) }));
      expect(lines[0]?.text).toMatch(/^wait: \d+\.\d{3} ms halfway$/);
      expect(lines[1]?.text).toMatch(/^wait: \d+\.\d{3} ms$/);
      // The timer waited on a real timer: its time moved on.
      expect(Number(/wait: ([\d.]+) ms$/.exec(lines[1]?.text ?? "")?.[1])).toBeGreaterThan(0);
      // Counters start again in every run, even in a warm isolate.
      expect(lines.slice(2, 7)).toEqual([
        { level: "warn", text: "Timer 'wait' does not exist" },
        { level: "log", text: "default: 1" },
        { level: "log", text: "default: 2" },
        { level: "log", text: "x: 1" },
        { level: "log", text: "default: 1" },
      ]);
      expect(lines[7]).toEqual({ level: "error", text: "Assertion failed: math is off" });
      expect(lines[8]).toEqual({ level: "log", text: "a group" });
      const trace = events.ofType("log").at(-1)?.values[0];
      expect(trace).toMatchObject({ t: "error", name: "Trace", message: "here" });
      // Its stack points at the gadget's own file, not at the console shim.
      expect(JSON.stringify(trace)).toContain("index.ts:17");
      expect(JSON.stringify(trace)).not.toContain("__workshop");
    }
  });

  it("carries group depth and labels and table columns on the events and in the stored record", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default {
  async run() {
    console.groupEnd();
    console.group("outer");
    console.log("one in");
    console.groupCollapsed("inner");
    console.warn("two in");
    console.table([{ name: "ada", age: 36 }, { name: "alan" }, 7]);
    console.groupEnd();
    console.table({ a: { x: 1 } }, ["x", "y"]);
    console.groupEnd();
    console.groupEnd();
    console.table("not rows");
    console.log("top");
    return "done";
  },
};
`),
    });
    const events = eventCollector();
    const outcome = await session.runDraft(draft.id, null, events.listener);
    expect(outcome).toMatchObject({ status: "ok" });
    const layout = (logs: RunEvent[]) =>
      logs.flatMap((event) =>
        event.type === "log"
          ? [{ text: text(event.values), depth: event.depth, group: event.group, columns: event.table?.columns }]
          : [],
      );
    const expected = [
      { text: "outer", depth: undefined, group: "open", columns: undefined },
      { text: "one in", depth: 1, group: undefined, columns: undefined },
      { text: "inner", depth: 1, group: "collapsed", columns: undefined },
      { text: "two in", depth: 2, group: undefined, columns: undefined },
      { text: expect.any(String), depth: 2, group: undefined, columns: ["name", "age"] },
      { text: expect.any(String), depth: 1, group: undefined, columns: ["x", "y"] },
      { text: "not rows", depth: undefined, group: undefined, columns: undefined },
      { text: "top", depth: undefined, group: undefined, columns: undefined },
    ];
    const streamed = events.ofType("log");
    expect(layout(streamed)).toEqual(expected);
    // A plain line carries no layout at all, as before groups and tables existed.
    expect(Object.keys(streamed.at(-1) ?? {}).sort()).toEqual(["level", "runId", "seq", "t", "type", "values"]);
    expect(streamed[4]?.values[0]).toMatchObject({ t: "array", length: 3 });

    let record: RunRecord | undefined;
    for (let tries = 0; tries < 50 && !record; tries++) {
      record = await session.getRun(outcome.runId).catch(() => undefined);
      if (!record) await new Promise((done) => setTimeout(done, 100));
    }
    expect(layout(record?.events ?? [])).toEqual(expected);
  });
});
