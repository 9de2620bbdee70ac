import { describe, expect, it } from "vitest";
import { type EncodedValue, encodeConsoleValues } from "./console-values.ts";
import { type ConsoleValueDisplay, decodeConsoleValue } from "./decode-console-value.ts";
import { CONSOLE_CAPS } from "./limits.ts";

class Stand {
  constructor(readonly text: string) {}
}

// Each kind left to the display comes back tagged, so a test sees what the display was handed.
const display: ConsoleValueDisplay = {
  placeholder: (text) => new Stand(text),
  symbol: (value) => ({ shown: value }),
  function: (value) => ({ shown: value }),
  regexp: (value) => ({ shown: value }),
  error: (value) => ({ shown: value }),
  typedarray: (value) => ({ shown: value }),
};

const decode = (value: EncodedValue) => decodeConsoleValue(value, display);
const roundTrip = (value: unknown) => {
  const [encoded] = encodeConsoleValues([value], CONSOLE_CAPS);
  if (!encoded) throw new Error("nothing encoded");
  return decode(encoded);
};

describe("decodeConsoleValue", () => {
  it("gives back primitives, including the numbers and bigints that travel as text", () => {
    expect([undefined, null, true, 1, "s"].map(roundTrip)).toEqual([undefined, null, true, 1, "s"]);
    expect(Object.is(roundTrip(-0), -0)).toBe(true);
    expect([Number.NaN, -Infinity].map(roundTrip)).toEqual([Number.NaN, -Infinity]);
    expect(roundTrip(-12n)).toBe(-12n);
    expect(decode({ t: "bigint", v: "0x10" })).toEqual(new Stand("0x10n"));
    expect(roundTrip("x".repeat(CONSOLE_CAPS.maxStringLength + 5))).toMatch(/… \(5 more characters\)$/);
  });

  it("gives back Maps, Sets and Dates as themselves", () => {
    expect(roundTrip(new Map([["k", new Set([1])]]))).toEqual(new Map([["k", new Set([1])]]));
    expect(roundTrip(new Date(0))).toEqual(new Date(0));
    expect(Number.isNaN((roundTrip(new Date(Number.NaN)) as Date).getTime())).toBe(true);
  });

  it("keeps class names and keys as data, and labels what was left out", () => {
    class Point {
      x = 1;
    }
    expect((roundTrip(new Point()) as object).constructor.name).toBe("Point");
    expect(decode({ t: "object", ctor: "a(){}; alert(1); class b", entries: [], size: 0 })).toEqual({});
    const decoded = roundTrip(JSON.parse('{"__proto__":{"polluted":true},"a":1}')) as Record<string, unknown>;
    expect(Object.keys(decoded)).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    const many = Object.fromEntries(Array.from({ length: CONSOLE_CAPS.maxKeys + 2 }, (_, i) => [`k${i}`, i]));
    expect((roundTrip(many) as Record<string, unknown>)["…"]).toEqual(new Stand("2 more keys"));
    const long = roundTrip(Array.from({ length: CONSOLE_CAPS.maxKeys + 5 }, (_, i) => i)) as unknown[];
    expect(long.at(-1)).toEqual(new Stand("… 5 more items"));
  });

  it("makes stand-ins for promises, cycles, cut-off parts and unreadable values", () => {
    expect(decode({ t: "promise" })).toEqual(new Stand("Promise { … }"));
    expect(decode({ t: "circular" })).toEqual(new Stand("[Circular]"));
    expect(decode({ t: "truncated", ctor: "Point" })).toEqual(new Stand("[Point]"));
    expect(decode({ t: "unreadable", reason: "trap" })).toEqual(new Stand("[unreadable: trap]"));
  });

  it("leaves symbols, functions, RegExps, errors and typed arrays to the display, nested too", () => {
    const leaves: EncodedValue[] = [
      { t: "symbol", v: "Symbol(s)" },
      { t: "function", name: "f" },
      { t: "regexp", v: "/x/g" },
      { t: "error", name: "Error", message: "bad", stack: "" },
      { t: "typedarray", ctor: "Uint8Array", items: [1], length: 1 },
    ];
    expect(decode({ t: "array", items: leaves, length: leaves.length })).toEqual(
      leaves.map((leaf) => ({ shown: leaf })),
    );
  });
});
