import { CONSOLE_CAPS, encodeConsoleValues } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { formatConsoleTable, formatConsoleValues } from "./console-format.ts";
import { ALL_ATTACKS, ATTACKS, steeringCharacters } from "./testing/terminal-attacks.ts";

const show = (...values: unknown[]) =>
  formatConsoleValues(encodeConsoleValues(values, CONSOLE_CAPS), false, (stack) =>
    stack.replace("index.ts", "g/index.ts"),
  );

describe("formatConsoleValues", () => {
  it("prints values the way console.log would", () => {
    class Point {
      x = 1;
      y = 2;
    }
    expect(show("got", { input: "hi" }, 3, null)).toBe("got { input: 'hi' } 3 null");
    expect(show(new Map([["k", new Set([1])]]))).toBe("Map(1) { 'k' => Set(1) { 1 } }");
    expect(show(new Point())).toBe("Point { x: 1, y: 2 }");
    expect(show([1, "two", undefined])).toBe("[ 1, 'two', undefined ]");
    expect(show(10n, Number.NaN, -0)).toBe("10n NaN -0");
  });

  it("labels what the encoder cut or could not send", () => {
    const cycle: Record<string, unknown> = { name: "loop" };
    cycle.self = cycle;
    expect(show(cycle)).toBe("{ name: 'loop', self: [Circular] }");
    expect(show("x".repeat(CONSOLE_CAPS.maxStringLength + 5))).toContain("… (5 more characters)");
    expect(show(() => 1)).toBe("[Function: (anonymous)]");
  });

  it("prints a logged error as its stack, with the caller's paths", () => {
    const error = new Error("bad");
    error.stack = "Error: bad\n    at run (index.ts:3:11)";
    expect(show("failed:", error)).toBe("failed: Error: bad\n    at run (g/index.ts:3:11)");
  });

  it("shows control characters as escapes in strings, keys, names, stacks and labels, coloured or not", () => {
    const error = new Error(ALL_ATTACKS);
    error.stack = `Error: ${ALL_ATTACKS}`;
    const named = { [ATTACKS.title]: () => 1 }[ATTACKS.title];
    const values = [
      ALL_ATTACKS,
      { [ATTACKS.c1]: ATTACKS.bidi, error },
      named,
      Symbol(ATTACKS.clipboard),
      [ATTACKS.erase],
    ];
    for (const colors of [false, true]) {
      const text = formatConsoleValues(encodeConsoleValues(values, CONSOLE_CAPS), colors, (stack) => stack);
      expect(steeringCharacters(text, colors)).toEqual([]);
      expect(text).not.toContain("\u001b[8m");
    }
    expect(show(ATTACKS.overwrite)).toBe("\\u000d\\u001b[1A✓ all checks passed");
  });

  it("keeps keys that look like Object.prototype's own", () => {
    expect(show({ constructor: "c", ["__proto__"]: 1 })).toContain("constructor: 'c'");
  });
});

describe("formatConsoleTable", () => {
  it("aligns every column to its widest cell, cuts long cells and says what was left out", () => {
    const lines = formatConsoleTable({
      header: ["(index)", "a"],
      rows: [
        ["0", "x".repeat(50)],
        ["1", "two\nlines"],
      ],
      moreRows: 3,
      moreColumns: 2,
    });
    expect(lines).toEqual([
      `┌─────────┬${"─".repeat(42)}┐`,
      `│ (index) │ a${" ".repeat(39)} │`,
      `├─────────┼${"─".repeat(42)}┤`,
      `│ 0       │ ${"x".repeat(39)}… │`,
      `│ 1       │ two lines${" ".repeat(31)} │`,
      `└─────────┴${"─".repeat(42)}┘`,
      "… 3 more rows, 2 more columns",
    ]);
  });

  it("shows control characters in cells as escapes, and measures the cells as shown", () => {
    const lines = formatConsoleTable({
      header: ["(index)", ATTACKS.c1],
      rows: [["0", ATTACKS.overwrite]],
      moreRows: 0,
      moreColumns: 0,
    });
    expect(steeringCharacters(lines.join("\n"))).toEqual([]);
    expect(lines[3]).toBe("│ 0       │ \\u000d\\u001b[1A✓ all checks passed │");
    expect(new Set(lines.slice(0, 5).map((line) => line.length)).size).toBe(1);
  });
});
