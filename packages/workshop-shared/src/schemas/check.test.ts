import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { errorCode } from "../errors.ts";
import { check, parseArgument, parseWithIssue } from "./check.ts";

describe("check", () => {
  it("gives the first problem as one sentence, with its own message", () => {
    const schema = v.object({ a: v.string("a must be text."), b: v.string("b must be text.") });
    expect(check(schema, { a: 1, b: 2 })).toEqual({ ok: false, error: "a must be text." });
    expect(check(schema, { a: "x", b: "y" })).toEqual({ ok: true, value: { a: "x", b: "y" } });
  });

  it("names the path and what was expected where a schema has no message of its own", () => {
    const schema = v.object({ items: v.array(v.object({ n: v.number() })) });
    expect(check(schema, { items: [{ n: 1 }, { n: "2" }] })).toEqual({
      ok: false,
      error: 'items.1.n must be number, not "2".',
    });
  });

  it("puts the prefix in front of the message", () => {
    expect(check(v.string("must be text."), 1, "gadget.json: ")).toEqual({
      ok: false,
      error: "gadget.json: must be text.",
    });
  });

  it("hands back the issue itself for callers that word the message around it", () => {
    const parsed = parseWithIssue(v.object({ name: v.string("bad name") }), { name: 1 });
    expect(parsed.ok === false && [parsed.issue.message, parsed.issue.path?.[0]?.key]).toEqual(["bad name", "name"]);
  });
});

describe("parseArgument", () => {
  it("returns the value when it fits", () => {
    expect(parseArgument(v.number(), 3)).toBe(3);
  });

  it("throws a TypeError with the code INVALID_ARGUMENT and the schema's sentence", () => {
    let thrown: unknown;
    try {
      parseArgument(v.number("limit must be a number."), "x");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as Error).message).toBe("limit must be a number.");
    expect(errorCode(thrown)).toBe("INVALID_ARGUMENT");
  });
});
