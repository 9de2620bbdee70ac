import { join } from "node:path";
import type { EncodedValue, RunErrorInfo, RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { RunPrinter } from "./run-printer.ts";
import { painter } from "./terminal-style.ts";
import { ALL_ATTACKS, ATTACKS, steeringCharacters } from "./testing/terminal-attacks.ts";

const timings = { queueMs: 0, buildMs: 1, runMs: 2, totalMs: 3 };
const ERROR: RunErrorInfo = {
  name: "RangeError",
  message: "too big",
  stack: "RangeError: too big\n    at check (lib/check.ts:2:20)\n    at Object.run (index.ts:5:12)",
  frames: [
    { fn: "check", file: "lib/check.ts", line: 2, column: 20 },
    { fn: "Object.run", file: "index.ts", line: 5, column: 12 },
    { fn: "", file: "<runtime>", line: 292, column: 40 },
  ],
};

function printerFor(json: boolean, colors = false) {
  const out = { stdout: "", stderr: "" };
  const printer = new RunPrinter({
    streams: { stdout: { write: (text) => (out.stdout += text) }, stderr: { write: (text) => (out.stderr += text) } },
    json,
    paint: painter(colors),
    local: {
      root: join(process.cwd(), "my-gadget"),
      files: [
        { path: "index.ts", content: "" },
        {
          path: "lib/check.ts",
          content: "export function check(n: number) {\n  if (n > 1) throw new RangeError('too big');\n}\n",
        },
      ],
    },
  });
  return { printer, out };
}

describe("RunPrinter", () => {
  it("points stacks and messages at the local files, with the failing line under a caret", () => {
    const { printer, out } = printerFor(false);
    printer.onEvent({ type: "error", runId: "r", seq: 0, t: 4, error: ERROR, uncaught: true });
    printer.finish({
      status: "error",
      runId: "r",
      kind: "user",
      message: "RangeError: too big (at lib/check.ts:2:20)",
      error: ERROR,
      timings,
    });
    expect(out.stderr).toContain("at check (my-gadget/lib/check.ts:2:20)");
    expect(out.stderr).toContain("at Object.run (my-gadget/index.ts:5:12)");
    expect(out.stderr).toContain("  2 |   if (n > 1) throw new RangeError('too big');\n                         ^");
    expect(out.stderr).toContain("✗ user: RangeError: too big (at my-gadget/lib/check.ts:2:20)");
    // The uncaught error is shown once, not again with the outcome.
    expect(out.stderr.match(/at check \(/g)).toHaveLength(1);
    expect(out.stdout).toBe("");
  });

  it("leaves a line too long for a stack frame as it came, and still points the short ones", () => {
    const { printer } = printerFor(false);
    const long = `${"a".repeat(20_000)} index.ts:5:12`;
    expect(printer.localStack(`at run (index.ts:5:12)\n${long}`)).toBe(`at run (my-gadget/index.ts:5:12)\n${long}`);
  });

  it("colours the level of each console line only when colours are on", () => {
    const event: RunEvent = {
      type: "log",
      runId: "r",
      seq: 0,
      t: 1,
      level: "warn",
      values: [{ t: "string", v: "careful" }],
    };
    const plain = printerFor(false);
    plain.printer.onEvent(event);
    expect(plain.out.stderr).toMatch(/^\s+1ms warn {2}careful\n$/);
    const colored = printerFor(false, true);
    colored.printer.onEvent(event);
    expect(colored.out.stderr).toContain("\u001b[33mwarn ");
  });

  it("indents grouped lines two spaces per level, continuation lines too", () => {
    const { printer, out } = printerFor(false);
    const line = (t: number, values: EncodedValue[], depth?: number): Extract<RunEvent, { type: "log" }> => ({
      type: "log",
      runId: "r",
      seq: t,
      t,
      level: "log",
      values,
      ...(depth ? { depth } : {}),
    });
    printer.onEvent({ ...line(1, [{ t: "string", v: "outer" }]), group: "open" });
    printer.onEvent(line(2, [{ t: "string", v: "in" }], 1));
    printer.onEvent(line(3, [{ t: "string", v: "a\nb" }], 2));
    printer.onEvent(line(4, [{ t: "string", v: "top" }]));
    expect(out.stderr).toBe(
      ["     1ms log   outer", "     2ms log     in", "     3ms log       a", "    b", "     4ms log   top", ""].join(
        "\n",
      ),
    );
  });

  it("prints a table line as an aligned table under its time and level, and keeps the marker in --json", () => {
    const event: RunEvent = {
      type: "log",
      runId: "r",
      seq: 0,
      t: 5,
      level: "log",
      depth: 1,
      values: [
        {
          t: "array",
          length: 2,
          items: [
            { t: "object", ctor: "Object", size: 1, entries: [["name", { t: "string", v: "ada" }]] },
            { t: "number", v: 7 },
          ],
        },
      ],
      table: { columns: ["name"] },
    };
    const plain = printerFor(false);
    plain.printer.onEvent(event);
    const pad = " ".repeat(15);
    expect(plain.out.stderr).toBe(
      [
        "     5ms log     ┌─────────┬───────┬────────┐",
        `${pad}  │ (index) │ name  │ Values │`,
        `${pad}  ├─────────┼───────┼────────┤`,
        `${pad}  │ 0       │ "ada" │        │`,
        `${pad}  │ 1       │       │ 7      │`,
        `${pad}  └─────────┴───────┴────────┘`,
        "",
      ].join("\n"),
    );
    const json = printerFor(true);
    json.printer.onEvent(event);
    expect(JSON.parse(json.out.stdout)).toMatchObject({ depth: 1, table: { columns: ["name"] } });
  });

  it("marks the lines, errors and traces an agent the run called wrote with that agent's name", () => {
    const from = { runId: "nested", agent: "weather" };
    const { printer, out } = printerFor(false);
    printer.onEvent({ type: "log", runId: "r", seq: 0, t: 1, level: "info", values: [{ t: "string", v: "own" }] });
    printer.onEvent({
      type: "log",
      runId: "r",
      seq: 1,
      t: 2,
      level: "info",
      values: [{ t: "string", v: "sunny" }],
      depth: 1,
      from,
    });
    printer.onEvent({ type: "error", runId: "r", seq: 2, t: 3, error: ERROR, uncaught: false, from });
    printer.onEvent({
      type: "trace",
      runId: "r",
      seq: 3,
      t: 4,
      capability: "kv",
      ok: true,
      ms: 1,
      summary: "get k",
      from,
    });
    const lines = out.stderr.split("\n");
    expect(lines[0]).toBe("     1ms info  own");
    expect(lines[1]).toBe("     2ms info  [weather]   sunny");
    expect(lines[2]).toBe("     3ms error [weather]");
    expect(lines).toContain("     4ms kv    [weather] ✓ get k (1 ms)");
    // A name is data from the Workshop like the rest: escaped, and painted only with colours on.
    const colored = printerFor(false, true);
    colored.printer.onEvent({
      type: "log",
      runId: "r",
      seq: 0,
      t: 1,
      level: "log",
      values: [{ t: "string", v: "x" }],
      from: { runId: "nested", agent: ATTACKS.title },
    });
    expect(steeringCharacters(colored.out.stderr, true)).toEqual([]);
    expect(colored.out.stderr).toContain("\u001b[34m[");
  });

  it("lines a called agent's table up under its first line, past the agent's name", () => {
    const { printer, out } = printerFor(false);
    printer.onEvent({
      type: "log",
      runId: "r",
      seq: 0,
      t: 5,
      level: "log",
      values: [{ t: "array", length: 1, items: [{ t: "number", v: 7 }] }],
      table: { columns: [] },
      from: { runId: "nested", agent: "ab" },
    });
    const [first = "", second = ""] = out.stderr.split("\n");
    expect(first).toBe("     5ms log   [ab] ┌─────────┬────────┐");
    expect(second.indexOf("│")).toBe(first.indexOf("┌"));
  });

  it("prints the result as JSON on stdout", () => {
    const { printer, out } = printerFor(false);
    printer.finish({ status: "ok", runId: "r", result: { a: [1] }, timings });
    expect(JSON.parse(out.stdout)).toEqual({ a: [1] });
    expect(out.stderr).toContain("✓ ok in 3 ms");
  });

  it("in --json mode writes one event per line, and an end line for a run refused before it streamed", () => {
    const { printer, out } = printerFor(true);
    const outcome: RunOutcome = { status: "error", runId: "r", kind: "busy", message: "busy", timings };
    printer.finish(outcome);
    expect(
      out.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([{ type: "end", runId: "r", outcome }]);

    const streamed = printerFor(true);
    streamed.printer.onEvent({ type: "end", runId: "r", seq: 0, t: 1, outcome });
    streamed.printer.finish(outcome);
    expect(streamed.out.stdout.trim().split("\n")).toHaveLength(1);
    expect(streamed.out.stderr).toBe("");
  });

  describe("prints what a run sends as data, never as orders to the terminal", () => {
    const attackError: RunErrorInfo = {
      name: "Error",
      message: ALL_ATTACKS,
      stack: `Error: ${ALL_ATTACKS}\n    at run (index.ts:1:1) ${ATTACKS.title}`,
      frames: [],
    };
    const events: RunEvent[] = [
      { type: "log", runId: "r", seq: 0, t: 1, level: "log", values: [{ t: "string", v: ALL_ATTACKS }] },
      {
        type: "log",
        runId: "r",
        seq: 1,
        t: 2,
        level: "info",
        values: [
          {
            t: "object",
            ctor: "Object",
            size: 2,
            entries: [
              [ATTACKS.title, { t: "string", v: ALL_ATTACKS }],
              ["err", { t: "error", name: "Error", message: "m", stack: ALL_ATTACKS }],
            ],
          },
          { t: "function", name: ATTACKS.overwrite },
          { t: "symbol", v: `Symbol(${ATTACKS.clipboard})` },
        ],
      },
      {
        type: "log",
        runId: "r",
        seq: 2,
        t: 3,
        level: "log",
        values: [
          {
            t: "array",
            length: 1,
            items: [
              { t: "object", ctor: "Object", size: 1, entries: [[ATTACKS.c1, { t: "string", v: ATTACKS.bidi }]] },
            ],
          },
        ],
        table: { columns: [ATTACKS.c1] },
      },
      { type: "error", runId: "r", seq: 3, t: 4, uncaught: false, error: attackError },
      { type: "trace", runId: "r", seq: 4, t: 5, capability: "fetch", ok: true, ms: 1, summary: ALL_ATTACKS },
    ];

    for (const colors of [false, true]) {
      it(`console values, errors, stacks, traces, results and messages${colors ? " (in colour)" : ""}`, () => {
        const { printer, out } = printerFor(false, colors);
        for (const event of events) printer.onEvent(event);
        printer.finish({ status: "ok", runId: "r", result: { [ATTACKS.bidi]: ALL_ATTACKS }, timings });
        printer.finish({
          status: "error",
          runId: "r",
          kind: "user",
          message: ALL_ATTACKS,
          error: attackError,
          timings,
        });
        expect(steeringCharacters(out.stderr, colors)).toEqual([]);
        expect(steeringCharacters(out.stdout)).toEqual([]);
        // The gadget's own colours are shown as text, not taken for the CLI's.
        expect(out.stderr).not.toContain("\u001b[8m");
        expect(out.stderr).toContain("\\u001b[32m✓ ok\\u001b[8mhidden");
        expect(out.stderr).toContain("\\u000d\\u001b[1A✓ all checks passed");
        // The result is still the JSON of the same value.
        expect(JSON.parse(out.stdout)).toEqual({ [ATTACKS.bidi]: ALL_ATTACKS });
      });
    }

    it("in --json mode, one valid JSON line per event, with the same values", () => {
      const { printer, out } = printerFor(true);
      for (const event of events) printer.onEvent(event);
      printer.finish({ status: "ok", runId: "r", result: ALL_ATTACKS, timings });
      expect(steeringCharacters(out.stdout)).toEqual([]);
      const lines = out.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(lines.slice(0, events.length)).toEqual(events);
      expect(lines.at(-1)).toMatchObject({ type: "end", outcome: { result: ALL_ATTACKS } });
    });
  });
});
