import type { RunEvent } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { comparableLine, comparableLines, consoleLineText } from "./console-text.ts";

const base = { runId: "r", seq: 0, t: 12 };
const log: RunEvent = {
  ...base,
  type: "log",
  level: "warn",
  values: [
    { t: "string", v: "got" },
    { t: "number", v: 2 },
  ],
};
const error: RunEvent = {
  ...base,
  type: "error",
  uncaught: true,
  error: {
    name: "TypeError",
    message: "x is undefined",
    stack: "TypeError: x is undefined\n    at index.ts:3:5",
    frames: [],
  },
};
const trace: RunEvent = { ...base, type: "trace", capability: "kv", summary: "a → 1", ok: false, ms: 3 };
const dropped: RunEvent = { ...base, type: "dropped", count: 40 };
const status: RunEvent = { ...base, type: "status", status: "running" };

describe("consoleLineText", () => {
  it("writes a log line's values as console.log would, at its level", () => {
    expect(consoleLineText(log)).toEqual({ level: "warn", text: "got 2" });
  });

  it("indents a line inside console.group two spaces a level", () => {
    expect(consoleLineText({ ...log, depth: 2 } as RunEvent)).toEqual({ level: "warn", text: "    got 2" });
  });

  it("shows an error's stack, or its name and message when it has none", () => {
    expect(consoleLineText(error)).toEqual({ level: "error", text: "TypeError: x is undefined\n    at index.ts:3:5" });
    const bare = { ...error, error: { ...(error as { error: object }).error, stack: "" } } as RunEvent;
    expect(consoleLineText(bare)?.text).toBe("TypeError: x is undefined");
  });

  it("writes capability calls with their time, failed ones as warnings, and counts dropped lines", () => {
    expect(consoleLineText(trace)).toEqual({ level: "warn", text: "⇄ kv: a → 1 (3 ms)" });
    expect(consoleLineText({ ...trace, ok: true } as RunEvent)?.level).toBe("info");
    expect(consoleLineText(dropped)).toEqual({ level: "debug", text: "40 lines dropped" });
  });

  it("gives no line for status and end events", () => {
    expect(consoleLineText(status)).toBeUndefined();
  });
});

describe("comparableLine", () => {
  it("leaves out what differs between two runs of the same code: times, stacks and drop counts", () => {
    expect(comparableLine(log)).toBe("warn: got 2");
    expect(comparableLine(error)).toBe("uncaught: TypeError: x is undefined");
    expect(comparableLine(trace)).toBe("kv: a → 1");
    expect(comparableLine({ ...trace, ms: 90 } as RunEvent)).toBe(comparableLine(trace));
    expect(comparableLines([status, log, dropped, trace])).toEqual(["warn: got 2", "kv: a → 1"]);
  });
});
