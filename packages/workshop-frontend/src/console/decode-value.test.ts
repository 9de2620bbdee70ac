import { CONSOLE_CAPS, encodeConsoleValues } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { decodeValue, type Placeholder } from "./decode-value.ts";

const roundTrip = (value: unknown) => {
  const [encoded] = encodeConsoleValues([value], CONSOLE_CAPS);
  if (!encoded) throw new Error("nothing encoded");
  return decodeValue(encoded);
};

describe("decodeValue", () => {
  it("gives back Maps, Sets, Dates, RegExps, BigInts and Errors as themselves", () => {
    const decoded = roundTrip({
      m: new Map([["k", 1]]),
      s: new Set([1]),
      d: new Date(0),
      r: /x/gi,
      b: 10n,
      e: new RangeError("bad"),
    }) as Record<string, unknown>;
    expect(decoded.m).toEqual(new Map([["k", 1]]));
    expect(decoded.s).toEqual(new Set([1]));
    expect(decoded.d).toEqual(new Date(0));
    expect(String(decoded.r)).toBe("/x/gi");
    expect(decoded.b).toBe(10n);
    expect(decoded.e).toBeInstanceOf(Error);
    expect((decoded.e as Error).name).toBe("RangeError");
  });

  it("gives an Error its message and stack as properties the inspector unfolds, its class named as the error", () => {
    const error = decodeValue({
      t: "error",
      name: "TypeError",
      message: "b-msg",
      stack: "TypeError: b-msg\n    at Object.run (index.ts:2:17)",
    }) as Error;
    expect(Object.keys(error).sort()).toEqual(["message", "stack"]);
    expect(error.message).toBe("b-msg");
    expect(error.stack).toBe("TypeError: b-msg\n    at Object.run (index.ts:2:17)");
    expect(error.name).toBe("TypeError");
    expect(error.constructor.name).toBe("TypeError");
    const hostile = decodeValue({ t: "error", name: "a(){}; alert(1); class b", message: "", stack: "" }) as Error;
    expect(hostile.constructor.name).toBe("a(){}; alert(1); class b");
    expect(hostile.stack).toBe("a(){}; alert(1); class b");
  });

  it("shows cycles and cut-off parts as labelled placeholders", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect((roundTrip(cycle) as { self: Placeholder }).self.label).toBe("[Circular]");
    const long = roundTrip(Array.from({ length: CONSOLE_CAPS.maxKeys + 5 }, (_, i) => i)) as unknown[];
    expect(String(long.at(-1))).toBe("… 5 more items");
  });

  it("keeps the class name of class instances, and markup stays a plain string", () => {
    class Point {
      x = 1;
    }
    expect((roundTrip(new Point()) as object).constructor.name).toBe("Point");
    expect(roundTrip("<img src=x onerror=alert(1)>")).toBe("<img src=x onerror=alert(1)>");
  });

  it("does not turn a hostile class name into code", () => {
    expect(decodeValue({ t: "object", ctor: "a(){}; alert(1); class b", entries: [], size: 0 })).toEqual({});
  });

  it("shows keys named like Object.prototype members as data, never as a prototype", () => {
    const decoded = roundTrip(JSON.parse('{"__proto__":{"polluted":true},"constructor":"x","a":1}')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(decoded)).toEqual(["__proto__", "constructor", "a"]);
    expect(Object.getOwnPropertyDescriptor(decoded, "__proto__")?.value).toEqual({ polluted: true });
    expect((decoded as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
