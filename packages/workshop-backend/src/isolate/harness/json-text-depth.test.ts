import { MAX_JSON_DEPTH } from "@gadgets/workshop-shared/limits";
import { checkPayload } from "@gadgets/workshop-shared/validate";
import { describe, expect, it } from "vitest";
import { jsonTextDepth } from "./json-text-depth.ts";

describe("jsonTextDepth", () => {
  it.each([
    ["0", 0],
    ['"text"', 0],
    ["[]", 0],
    ["{}", 0],
    ["[0]", 1],
    ["[[]]", 1],
    ['{"a":{"b":[true,null]}}', 3],
    ['[1,[2,[3]],"x"]', 3],
  ])("measures %s as %i levels", (text, depth) => {
    expect(jsonTextDepth(text)).toBe(depth);
  });

  it("does not count brackets, quotes or escapes inside strings", () => {
    expect(jsonTextDepth(JSON.stringify(["[[[{{{", 'say "[" \\', { k: "]]]" }]))).toBe(2);
    expect(jsonTextDepth(JSON.stringify({ "[[[": 1 }))).toBe(1);
    expect(jsonTextDepth(JSON.stringify(["ends in \\", "[[", '\\"[', "\\\\"]))).toBe(1);
  });

  it("agrees with the payload rule at its limit and one past it", () => {
    for (const levels of [MAX_JSON_DEPTH, MAX_JSON_DEPTH + 1]) {
      for (const bottom of ["x", [], {}]) {
        let value: unknown = bottom;
        for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { k: value };
        const refusedAsPayload = !checkPayload(value).ok;
        expect(jsonTextDepth(JSON.stringify(value)) > MAX_JSON_DEPTH, `${levels} over ${JSON.stringify(bottom)}`).toBe(
          refusedAsPayload,
        );
      }
    }
  });

  it("measures a million levels without recursion", () => {
    expect(jsonTextDepth(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`)).toBe(999_999);
  });
});
