import { describe, expect, it } from "vitest";
import { MAX_PAYLOAD_BYTES } from "../limits.ts";
import { check } from "./check.ts";
import { jsonValue, PayloadSchema } from "./json.ts";

function nested(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

describe("PayloadSchema", () => {
  it("accepts plain JSON data as it is", () => {
    const value = { a: [1, "two", true, null, { b: -0.5 }] };
    expect(check(PayloadSchema, value)).toEqual({ ok: true, value });
  });

  it.each([
    ["undefined", { a: undefined }, "payload.a is undefined"],
    ["NaN", [1, Number.NaN], "payload[1] is NaN, which JSON cannot carry"],
    ["a function", { f: () => 1 }, "payload.f is a function"],
    ["a Map", new Map(), "payload is a Map object"],
    ["a bigint", 10n, "payload is a bigint"],
  ])("refuses %s, naming where", (_, value, where) => {
    expect(check(PayloadSchema, value)).toEqual({
      ok: false,
      error: `Invalid payload: ${where}. Send plain JSON data (objects, arrays, strings, finite numbers, booleans, null).`,
    });
  });

  it("allows 64 levels of nesting and refuses 65", () => {
    expect(check(PayloadSchema, nested(64)).ok).toBe(true);
    const deeper = check(PayloadSchema, nested(65));
    expect(deeper.ok === false && deeper.error).toContain("is nested more than 64 levels deep");
  });

  it("refuses a hostile, very deep value without overflowing the stack", () => {
    const deeper = check(PayloadSchema, nested(1_000_000));
    expect(deeper.ok === false && deeper.error).toContain("is nested more than 64 levels deep");
  });

  it("says how large a payload is when it is past MAX_PAYLOAD_BYTES", () => {
    const over = check(PayloadSchema, "x".repeat(MAX_PAYLOAD_BYTES));
    expect(over).toEqual({
      ok: false,
      error: `The payload is ${MAX_PAYLOAD_BYTES + 2} bytes as JSON; the limit is ${MAX_PAYLOAD_BYTES} bytes. Send less data, or pass a reference to it.`,
    });
  });
});

describe("jsonValue", () => {
  it("names the value as its caller calls it", () => {
    const checked = check(jsonValue("exampleInput"), { x: undefined });
    expect(checked.ok === false && checked.error).toContain("Invalid exampleInput: exampleInput.x is undefined.");
  });
});
