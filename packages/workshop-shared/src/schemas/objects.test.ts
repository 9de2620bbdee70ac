import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { check } from "./check.ts";
import { boundedList, optionalArgument, shape, strictShape } from "./objects.ts";

const point = shape(
  { x: v.number("x must be a number."), y: v.optional(v.number("y must be a number.")) },
  { notObject: "A point is an object { x, y }." },
);
const strictPoint = strictShape(
  { x: v.number("x must be a number.") },
  { notObject: "A point is an object { x }.", unknownKey: (key) => `Unknown field "${key}".` },
);

describe("shape", () => {
  it.each([null, undefined, 3, "x", [], [1]])("refuses %j as not an object", (value) => {
    expect(check(point, value)).toEqual({ ok: false, error: "A point is an object { x, y }." });
  });

  it("reports a missing key as its own schema reports undefined", () => {
    expect(check(point, { y: 1 })).toEqual({ ok: false, error: "x must be a number." });
  });

  it("drops keys it does not list", () => {
    expect(check(point, { x: 1, z: 2 })).toEqual({ ok: true, value: { x: 1 } });
  });
});

describe("strictShape", () => {
  it("refuses a key it does not list, by name", () => {
    expect(check(strictPoint, { x: 1, z: 2 })).toEqual({ ok: false, error: 'Unknown field "z".' });
  });

  it("refuses an empty array, which object schemas alone would read as {}", () => {
    expect(check(strictShape({}, { notObject: "Not an object.", unknownKey: () => "" }), [])).toEqual({
      ok: false,
      error: "Not an object.",
    });
  });
});

describe("boundedList", () => {
  const list = boundedList(v.number("items are numbers."), 3, {
    notList: "Send a list.",
    tooLong: (length) => `At most 3 items, not ${length}.`,
  });

  it("allows max items and refuses one more, before looking at any item", () => {
    expect(check(list, [1, 2, 3]).ok).toBe(true);
    expect(check(list, ["a", "b", "c", "d"])).toEqual({ ok: false, error: "At most 3 items, not 4." });
    expect(check(list, [1, "b"])).toEqual({ ok: false, error: "items are numbers." });
    expect(check(list, { length: 1 })).toEqual({ ok: false, error: "Send a list." });
  });
});

describe("optionalArgument", () => {
  const limit = optionalArgument(v.number("limit must be a number."));

  it("reads left out, undefined and null alike as none", () => {
    expect(check(limit, undefined)).toEqual({ ok: true, value: undefined });
    expect(check(limit, null)).toEqual({ ok: true, value: undefined });
    expect(check(limit, 4)).toEqual({ ok: true, value: 4 });
    expect(check(limit, "4")).toEqual({ ok: false, error: "limit must be a number." });
  });
});
