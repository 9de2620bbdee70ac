import type { LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import { CONSOLE_CAPS, MAX_CONSOLE_GROUP_DEPTH } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { installConsole, type ShimmedConsole, tableColumns, withoutFramesOf } from "./console-shim.ts";
import { newRunState, type RunState } from "./run-state.ts";

interface Logged {
  run: string;
  level: LogLevel;
  args: unknown[];
  layout?: LogLayout;
}

/** A console shimmed onto a plain object, writing to a list, with a clock the test moves. */
function shimmed(runs: RunState[] = [newRunState("a", null)]) {
  const logged: Logged[] = [];
  const clock = { now: 1000 };
  const target = {} as ShimmedConsole;
  installConsole(
    target,
    {
      current: () => runs,
      log: (run, level, args, layout) =>
        void logged.push({ run: run.id, level, args: [...args], ...(layout ? { layout } : {}) }),
    },
    () => clock.now,
  );
  const lines = () => logged.map(({ level, args, layout }) => ({ level, args, ...(layout ? { layout } : {}) }));
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

  it("logs dir and dirxml as plain logs", () => {
    const { console, lines } = shimmed();
    console.dir({ b: 2 });
    console.dirxml("c");
    expect(lines()).toEqual([
      { level: "log", args: [{ b: 2 }] },
      { level: "log", args: ["c"] },
    ]);
  });

  it("marks a group's label and nests what follows, up to its groupEnd", () => {
    const { console, lines } = shimmed();
    console.group("outer", 1);
    console.log("in outer");
    console.groupCollapsed();
    console.count();
    console.groupEnd();
    console.warn("back in outer");
    console.groupEnd();
    console.log("top");
    expect(lines()).toEqual([
      { level: "log", args: ["outer", 1], layout: { group: "open" } },
      { level: "log", args: ["in outer"], layout: { depth: 1 } },
      { level: "log", args: ["console.groupCollapsed"], layout: { depth: 1, group: "collapsed" } },
      { level: "log", args: ["default: 1"], layout: { depth: 2 } },
      { level: "warn", args: ["back in outer"], layout: { depth: 1 } },
      { level: "log", args: ["top"] },
    ]);
  });

  it("ignores groupEnd with no group open", () => {
    const { console, lines } = shimmed();
    console.groupEnd();
    console.groupEnd();
    console.group("g");
    console.log("in");
    expect(lines()).toEqual([
      { level: "log", args: ["g"], layout: { group: "open" } },
      { level: "log", args: ["in"], layout: { depth: 1 } },
    ]);
  });

  it("keeps the group depth per run", () => {
    const a = newRunState("a", null);
    const b = newRunState("b", null);
    const runs = [a];
    const { console, logged } = shimmed(runs);
    console.group("a's group");
    runs[0] = b;
    console.log("b's line");
    console.groupEnd();
    runs[0] = a;
    console.log("a's line");
    expect(logged.map((entry) => [entry.run, entry.layout?.depth ?? 0])).toEqual([
      ["a", 0],
      ["b", 0],
      ["a", 1],
    ]);
  });

  it("nests lines up to the depth cap and no further, groups still closing in step (N and N+1)", () => {
    const { console, logged } = shimmed();
    for (let i = 0; i < MAX_CONSOLE_GROUP_DEPTH; i++) console.group(`g${i}`);
    console.log("at the cap");
    console.group("past the cap");
    console.log("still at the cap");
    console.groupEnd();
    console.log("closed one");
    console.groupEnd();
    console.log("closed two");
    const last = logged.slice(MAX_CONSOLE_GROUP_DEPTH - 1).map((entry) => [entry.args[0], entry.layout]);
    expect(last).toEqual([
      [`g${MAX_CONSOLE_GROUP_DEPTH - 1}`, { depth: MAX_CONSOLE_GROUP_DEPTH - 1, group: "open" }],
      ["at the cap", { depth: MAX_CONSOLE_GROUP_DEPTH }],
      // Its label is a plain line: nothing after it could sit deeper.
      ["past the cap", { depth: MAX_CONSOLE_GROUP_DEPTH }],
      ["still at the cap", { depth: MAX_CONSOLE_GROUP_DEPTH }],
      ["closed one", { depth: MAX_CONSOLE_GROUP_DEPTH }],
      ["closed two", { depth: MAX_CONSOLE_GROUP_DEPTH - 1 }],
    ]);
  });

  it("logs a table's data alone, marked with its columns, nested like any line", () => {
    const { console, lines } = shimmed();
    const rows = [{ a: 1 }, { b: 2, a: 3 }, 7];
    console.table(rows);
    console.group("g");
    console.table({ x: { a: 1 } }, ["a", "z"]);
    expect(lines()).toEqual([
      { level: "log", args: [rows], layout: { table: { columns: ["a", "b"] } } },
      { level: "log", args: ["g"], layout: { group: "open" } },
      { level: "log", args: [{ x: { a: 1 } }], layout: { depth: 1, table: { columns: ["a", "z"] } } },
    ]);
  });

  it("logs what is not tabular as console.log does, arguments and all", () => {
    const { console, lines } = shimmed();
    console.table("text", ["a"]);
    console.table(new Map([[1, 2]]));
    console.table();
    expect(lines()).toEqual([
      { level: "log", args: ["text", ["a"]] },
      { level: "log", args: [new Map([[1, 2]])] },
      { level: "log", args: [] },
    ]);
  });

  it("logs rows it cannot read as a plain line", () => {
    const { console, lines } = shimmed();
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    console.table(hostile);
    expect(lines()).toEqual([{ level: "log", args: [hostile] }]);
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

describe("tableColumns", () => {
  it("takes the union of the rows' keys in the order first seen, for arrays and objects of rows", () => {
    expect(tableColumns([{ b: 1 }, { a: 2, b: 3 }, "x", null, [5, 6]])).toEqual(["b", "a", "0", "1"]);
    expect(tableColumns({ r1: { name: "a" }, r2: { age: 3 } })).toEqual(["name", "age"]);
    expect(tableColumns([1, 2])).toEqual([]);
  });

  it("takes the given columns instead, as text", () => {
    expect(tableColumns([{ a: 1 }], ["b", 1])).toEqual(["b", "1"]);
  });

  it("is undefined for what is not rows", () => {
    for (const data of [
      undefined,
      null,
      1,
      "s",
      new Map(),
      new Set(),
      new Date(),
      /x/,
      new Error("e"),
      new Uint8Array(2),
    ])
      expect(tableColumns(data)).toBeUndefined();
  });

  it("reads only the rows the encoder keeps, and as many keys (N and N+1)", () => {
    const rows = Array.from({ length: CONSOLE_CAPS.maxKeys + 1 }, (_, i) => ({ [`k${i}`]: i }));
    const columns = tableColumns(rows);
    expect(columns).toHaveLength(CONSOLE_CAPS.maxKeys);
    expect(columns?.at(-1)).toBe(`k${CONSOLE_CAPS.maxKeys - 1}`);
    const wide = Object.fromEntries(Array.from({ length: CONSOLE_CAPS.maxKeys + 1 }, (_, i) => [`c${i}`, i]));
    expect(tableColumns([wide])).toHaveLength(CONSOLE_CAPS.maxKeys);
  });
});

describe("withoutFramesOf", () => {
  it("drops the stack lines of one module", () => {
    const stack = "Trace: x\n    at trace (__workshop_console.js:9:1)\n    at run (index.js:3:5)";
    expect(withoutFramesOf(stack, "__workshop_console.js")).toBe("Trace: x\n    at run (index.js:3:5)");
  });
});
