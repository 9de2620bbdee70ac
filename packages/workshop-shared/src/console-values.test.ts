import { describe, expect, it } from "vitest";
import {
  type EncodedValue,
  encodeConsoleValues,
  formatConsoleLine,
  formatEncodedValue,
  sanitizeEncodedValues,
} from "./console-values.ts";
import { CONSOLE_CAPS } from "./limits.ts";

const encode = (...values: unknown[]) => encodeConsoleValues(values, CONSOLE_CAPS);
const one = (value: unknown): EncodedValue => encode(value)[0] ?? { t: "undefined" };

describe("encodeConsoleValues", () => {
  it("keeps primitives readable, including the ones JSON loses", () => {
    expect(formatConsoleLine(encode("text", 1, -0, Number.NaN, Infinity, 2n, true, null, undefined, Symbol("s")))).toBe(
      "text 1 -0 NaN Infinity 2n true null undefined Symbol(s)",
    );
  });

  it("encodes Map, Set, Date, RegExp, Error, typed arrays and class instances", () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
    }
    expect(formatEncodedValue(one(new Map([["a", 1]])))).toBe('Map(1) { "a" => 1 }');
    expect(formatEncodedValue(one(new Set([1, 2])))).toBe("Set(2) { 1, 2 }");
    expect(formatEncodedValue(one(new Date(0)))).toBe("1970-01-01T00:00:00.000Z");
    expect(formatEncodedValue(one(new Date(Number.NaN)))).toBe("Invalid Date");
    expect(formatEncodedValue(one(/a+/g))).toBe("/a+/g");
    expect(one(new RangeError("bad"))).toMatchObject({ t: "error", name: "RangeError", message: "bad" });
    expect(formatEncodedValue(one(new Uint8Array([1, 2])))).toBe("Uint8Array(2) [1, 2]");
    expect(formatEncodedValue(one(new Point(1, 2)))).toBe("Point { x: 1, y: 2 }");
    expect(formatEncodedValue(one(Promise.resolve(1)))).toBe("Promise { … }");
    expect(formatEncodedValue(one(function named() {}))).toBe("[Function named]");
  });

  it("marks cycles but not repeated siblings", () => {
    const shared = { v: 1 };
    const cycle: Record<string, unknown> = { shared, again: shared };
    cycle.self = cycle;
    expect(formatEncodedValue(one(cycle))).toBe("{ shared: { v: 1 }, again: { v: 1 }, self: [Circular] }");
  });

  it("survives throwing getters and hostile proxies", () => {
    const trap = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error("nope");
        },
      },
    );
    expect(one(trap)).toMatchObject({ t: "unreadable", reason: "Error: nope" });
    const getter = Object.defineProperty({}, "x", {
      enumerable: true,
      get: () => {
        throw new Error("getter");
      },
    });
    expect(one(getter)).toMatchObject({ t: "object", entries: [["x", { t: "unreadable", reason: "Error: getter" }]] });
  });

  it("cuts strings at maxStringLength and keeps the original length (N and N+1)", () => {
    expect(one("x".repeat(CONSOLE_CAPS.maxStringLength))).toEqual({
      t: "string",
      v: "x".repeat(CONSOLE_CAPS.maxStringLength),
    });
    expect(one("x".repeat(CONSOLE_CAPS.maxStringLength + 1))).toEqual({
      t: "string",
      v: "x".repeat(CONSOLE_CAPS.maxStringLength),
      length: CONSOLE_CAPS.maxStringLength + 1,
    });
  });

  it("shows maxKeys items of an array and counts the rest (N and N+1)", () => {
    const exact = one(Array.from({ length: CONSOLE_CAPS.maxKeys }, (_, i) => i));
    const over = one(Array.from({ length: CONSOLE_CAPS.maxKeys + 1 }, (_, i) => i));
    expect(exact.t === "array" && [exact.items.length, exact.length]).toEqual([
      CONSOLE_CAPS.maxKeys,
      CONSOLE_CAPS.maxKeys,
    ]);
    expect(over.t === "array" && [over.items.length, over.length]).toEqual([
      CONSOLE_CAPS.maxKeys,
      CONSOLE_CAPS.maxKeys + 1,
    ]);
  });

  it("shows maxKeys keys of an object and counts the rest (N and N+1)", () => {
    const object = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const exact = one(object(CONSOLE_CAPS.maxKeys));
    const over = one(object(CONSOLE_CAPS.maxKeys + 1));
    expect(exact.t === "object" && [exact.entries.length, exact.size]).toEqual([
      CONSOLE_CAPS.maxKeys,
      CONSOLE_CAPS.maxKeys,
    ]);
    expect(over.t === "object" && [over.entries.length, over.size]).toEqual([
      CONSOLE_CAPS.maxKeys,
      CONSOLE_CAPS.maxKeys + 1,
    ]);
  });

  it("expands maxDepth levels and truncates below (N and N+1)", () => {
    const nest = (levels: number) => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = { v: value };
      return value;
    };
    expect(JSON.stringify(encode(nest(CONSOLE_CAPS.maxDepth)))).not.toContain("truncated");
    expect(JSON.stringify(encode(nest(CONSOLE_CAPS.maxDepth + 1)))).toContain('"truncated"');
  });

  it("encodes maxArgs arguments and summarises the rest (N and N+1)", () => {
    expect(encode(...Array.from({ length: CONSOLE_CAPS.maxArgs }, () => 0))).toHaveLength(CONSOLE_CAPS.maxArgs);
    const over = encode(...Array.from({ length: CONSOLE_CAPS.maxArgs + 1 }, () => 0));
    expect(over).toHaveLength(CONSOLE_CAPS.maxArgs + 1);
    expect(over.at(-1)).toEqual({ t: "string", v: "… 1 more arguments" });
  });

  it("keeps at most maxCharsPerCall characters of text per call (N and N+1)", () => {
    const per = CONSOLE_CAPS.maxStringLength;
    const count = CONSOLE_CAPS.maxCharsPerCall / per;
    const exact = encode(
      ..."x"
        .repeat(count)
        .split("")
        .map(() => "y".repeat(per)),
    );
    expect(exact.every((value) => value.t === "string" && value.length === undefined)).toBe(true);
    const over = encode(...Array.from({ length: count }, () => "y".repeat(per)), "z");
    expect(over.at(-1)).toEqual({ t: "string", v: "", length: 1 });
  });

  it("stops expanding once maxNodes values were encoded", () => {
    const wide = Array.from({ length: 100 }, () => Array.from({ length: 100 }, (_, i) => i));
    const size = JSON.stringify(one(wide)).match(/"t":/g)?.length ?? 0;
    expect(size).toBeLessThanOrEqual(CONSOLE_CAPS.maxNodes + 200);
  });
});

describe("sanitizeEncodedValues", () => {
  it("passes well-formed encodings through unchanged", () => {
    const values = encode(new Map([["k", [1, { a: new Set([2n]) }]]]), new Error("e"), "s", -0, undefined);
    expect(sanitizeEncodedValues(values, CONSOLE_CAPS)).toEqual(values);
  });

  it("turns forged or malformed nodes into unreadable ones", () => {
    const forged = [
      { t: "string", v: 42 },
      { t: "nope" },
      null,
      { t: "array", items: "x", length: 1 },
      { t: "object", ctor: "O", size: 1, entries: [[1, 2]] },
    ];
    const result = sanitizeEncodedValues(forged, CONSOLE_CAPS);
    expect(result.slice(0, 4).every((value) => value.t === "unreadable")).toBe(true);
    expect(result[4]).toEqual({
      t: "object",
      ctor: "O",
      size: 1,
      entries: [["?", { t: "unreadable", reason: "malformed console value" }]],
    });
    expect(sanitizeEncodedValues("not an array", CONSOLE_CAPS)).toEqual([
      { t: "unreadable", reason: "malformed console value" },
    ]);
  });

  it("bounds depth and size of what it accepts", () => {
    let deep: unknown = { t: "null" };
    for (let i = 0; i < 1000; i++) deep = { t: "array", items: [deep], length: 1 };
    expect(JSON.stringify(sanitizeEncodedValues([deep], CONSOLE_CAPS))).toContain('"truncated"');
    const long = sanitizeEncodedValues(
      [{ t: "string", v: "x".repeat(CONSOLE_CAPS.maxStringLength + 5) }],
      CONSOLE_CAPS,
    )[0];
    expect(long?.t === "string" && long.v.length).toBe(CONSOLE_CAPS.maxStringLength);
    const many = sanitizeEncodedValues(
      Array.from({ length: 30 }, () => ({ t: "string", v: "y".repeat(CONSOLE_CAPS.maxStringLength) })),
      CONSOLE_CAPS,
    );
    const total = many.reduce((sum, value) => sum + (value.t === "string" ? value.v.length : 0), 0);
    expect(total).toBe(CONSOLE_CAPS.maxCharsPerCall);
  });
});
