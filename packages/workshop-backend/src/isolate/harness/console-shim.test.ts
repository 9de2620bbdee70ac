import type { LogLevel } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import { installConsole, type ShimmedConsole, withoutFramesOf } from "./console-shim.ts";
import { newRunState, type RunState } from "./run-state.ts";

interface Logged {
  run: string;
  level: LogLevel;
  args: unknown[];
}

/** A console shimmed onto a plain object, writing to a list, with a clock the test moves. */
function shimmed(runs: RunState[] = [newRunState("a", null)]) {
  const logged: Logged[] = [];
  const clock = { now: 1000 };
  const target = {} as ShimmedConsole;
  installConsole(
    target,
    { current: () => runs, log: (run, level, args) => void logged.push({ run: run.id, level, args: [...args] }) },
    () => clock.now,
  );
  const lines = () => logged.map(({ level, args }) => ({ level, args }));
  return { console: target, logged, lines, clock, runs };
}

describe("installConsole", () => {
  it("sends each level's calls with their arguments", () => {
    const { console, lines } = shimmed();
    console.log("a", 1);
    console.info("b");
    console.warn("c");
    console.error("d");
    console.debug("e", { x: 1 });
    expect(lines()).toEqual([
      { level: "log", args: ["a", 1] },
      { level: "info", args: ["b"] },
      { level: "warn", args: ["c"] },
      { level: "error", args: ["d"] },
      { level: "debug", args: ["e", { x: 1 }] },
    ]);
  });

  it("sends a call to every run it belongs to, and nowhere when it belongs to none", () => {
    const both = shimmed([newRunState("a", null), newRunState("b", null)]);
    both.console.log("hi");
    expect(both.logged.map((entry) => entry.run)).toEqual(["a", "b"]);
    const none = shimmed([]);
    none.console.log("hi");
    none.console.count();
    none.console.time();
    expect(none.logged).toEqual([]);
  });

  it("logs table, dir and dirxml as plain logs", () => {
    const { console, lines } = shimmed();
    console.table([{ a: 1 }]);
    console.dir({ b: 2 });
    console.dirxml("c");
    expect(lines()).toEqual([
      { level: "log", args: [[{ a: 1 }]] },
      { level: "log", args: [{ b: 2 }] },
      { level: "log", args: ["c"] },
    ]);
  });

  it("logs a group's label, console.group without one, and nothing at its end", () => {
    const { console, lines } = shimmed();
    console.group("outer", 1);
    console.groupCollapsed();
    console.groupEnd();
    console.groupEnd();
    expect(lines()).toEqual([
      { level: "log", args: ["outer", 1] },
      { level: "log", args: ["console.group"] },
    ]);
  });

  it("asserts as browsers do: silent when true, an error starting 'Assertion failed' when not", () => {
    const { console, lines } = shimmed();
    console.assert(true, "never shown");
    console.assert(1 + 1 === 3, "math is off", 42);
    console.assert(false, { why: "object" });
    console.assert(false);
    expect(lines()).toEqual([
      { level: "error", args: ["Assertion failed: math is off", 42] },
      { level: "error", args: ["Assertion failed", { why: "object" }] },
      { level: "error", args: ["Assertion failed"] },
    ]);
  });

  it("counts per label and per run, and starts a label again after countReset", () => {
    const a = newRunState("a", null);
    const b = newRunState("b", null);
    const runs = [a];
    const { console, logged } = shimmed(runs);
    console.count();
    console.count();
    console.count("x");
    console.countReset();
    console.count();
    runs[0] = b;
    console.count();
    expect(logged.map((entry) => `${entry.run} ${entry.args[0]}`)).toEqual([
      "a default: 1",
      "a default: 2",
      "a x: 1",
      "a default: 1",
      "b default: 1",
    ]);
  });

  it("times with three decimals, keeps the timer on timeLog and removes it on timeEnd", () => {
    const { console, lines, clock } = shimmed();
    console.time("wait");
    clock.now += 12.5;
    console.timeLog("wait", "halfway", 1);
    clock.now += 0.25;
    console.timeEnd("wait");
    console.timeEnd("wait");
    expect(lines()).toEqual([
      { level: "log", args: ["wait: 12.500 ms", "halfway", 1] },
      { level: "log", args: ["wait: 12.750 ms"] },
      { level: "warn", args: ["Timer 'wait' does not exist"] },
    ]);
  });

  it("warns about a timer started twice and keeps its first start", () => {
    const { console, lines, clock } = shimmed();
    console.time();
    clock.now += 5;
    console.time();
    console.timeEnd();
    expect(lines()).toEqual([
      { level: "warn", args: ["Timer 'default' already exists"] },
      { level: "log", args: ["default: 5.000 ms"] },
    ]);
  });

  it("keeps timers per run", () => {
    const runs = [newRunState("a", null)];
    const { console, lines } = shimmed(runs);
    console.time("t");
    runs[0] = newRunState("b", null);
    console.timeEnd("t");
    expect(lines()).toEqual([{ level: "warn", args: ["Timer 't' does not exist"] }]);
  });

  it("traces as an Error named Trace, its message the arguments", () => {
    const { console, logged } = shimmed();
    console.trace("here", 1);
    console.trace();
    const [first, second] = logged.map((entry) => entry.args[0] as Error);
    expect(first).toBeInstanceOf(Error);
    expect([first?.name, first?.message]).toEqual(["Trace", "here 1"]);
    expect(second?.message).toBe("console.trace");
    expect(first?.stack).toContain("console-shim.test.ts");
  });
});

describe("withoutFramesOf", () => {
  it("drops the stack lines of one module", () => {
    const stack = "Trace: x\n    at trace (__workshop_console.js:9:1)\n    at run (index.js:3:5)";
    expect(withoutFramesOf(stack, "__workshop_console.js")).toBe("Trace: x\n    at run (index.js:3:5)");
  });
});
