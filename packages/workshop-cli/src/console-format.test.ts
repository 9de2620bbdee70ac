import { CONSOLE_CAPS, encodeConsoleValues } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { formatConsoleValues } from "./console-format.ts";

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

  it("keeps keys that look like Object.prototype's own", () => {
    expect(show({ constructor: "c", ["__proto__"]: 1 })).toContain("constructor: 'c'");
  });
});
