import { describe, expect, it } from "vitest";
import { parseFrameLine, parseFrames } from "./stack-map.ts";

describe("parseFrameLine", () => {
  it("reads V8 frames with and without a function name", () => {
    expect(parseFrameLine("    at run (file:///index.js:12:5)")).toEqual({
      fn: "run",
      location: "file:///index.js",
      line: 12,
      column: 5,
    });
    expect(parseFrameLine("at async Object.run (lib/a b.js:3:9)")).toEqual({
      fn: "async Object.run",
      location: "lib/a b.js",
      line: 3,
      column: 9,
    });
    expect(parseFrameLine("  at index.js:7:1")).toEqual({ fn: "", location: "index.js", line: 7, column: 1 });
  });

  it("refuses lines that are no frame", () => {
    for (const line of ["Error: boom", "at", "at index.js:7", "at fn (index.js:1:x)", "at index.js:1:2)", "xat a:1:2"])
      expect(parseFrameLine(line), line).toBeUndefined();
  });

  it("parses gadget-made pathological stacks in one pass (they made the old regex quadratic)", () => {
    // Lines short enough to be parsed (a longer one is skipped unread), each one the worst case.
    const stack = `Error\n${`at ${" (".repeat(995)}\n`.repeat(10)}`;
    for (let i = 0; i < 2000; i++) expect(parseFrames(stack, undefined)).toEqual([]);
    const long = `at f (${"x:".repeat(900)}1:2)`;
    expect(parseFrameLine(long)?.line).toBe(1);
  });
});
