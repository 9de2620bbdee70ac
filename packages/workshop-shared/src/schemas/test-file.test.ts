import { describe, expect, it } from "vitest";
import { MAX_TEST_NAME_LENGTH } from "../limits.ts";
import { check } from "./check.ts";
import { TestCaseSchema, TestExpectationsSchema } from "./test-file.ts";

describe("TestCaseSchema", () => {
  it("trims the name, runs a case without input with null, and expects nothing by default", () => {
    expect(check(TestCaseSchema, { name: " adds " })).toEqual({
      ok: true,
      value: { name: "adds", input: null, expect: {} },
    });
  });

  it(`allows a name of ${MAX_TEST_NAME_LENGTH} characters and refuses one more`, () => {
    expect(check(TestCaseSchema, { name: "n".repeat(MAX_TEST_NAME_LENGTH) }).ok).toBe(true);
    expect(check(TestCaseSchema, { name: "n".repeat(MAX_TEST_NAME_LENGTH + 1) })).toEqual({
      ok: false,
      error: `"name" must be a non-empty string of at most ${MAX_TEST_NAME_LENGTH} characters.`,
    });
  });

  it.each([
    [[], 'a case must be an object { "name", "input", "expect" }.'],
    [{ name: "a", inputs: 1 }, 'unknown field "inputs"; a case has "name", "input" and "expect".'],
    [{ name: "a", input: { x: undefined } }, "Invalid input: input.x is undefined."],
  ])("refuses %j: %s", (value, message) => {
    const checked = check(TestCaseSchema, value);
    expect(checked.ok === false && checked.error).toContain(message);
  });
});

describe("TestExpectationsSchema", () => {
  it("accepts every expectation together", () => {
    const expectations = { outcome: "ok", equals: 1, contains: 1, matches: "^1$", noErrorLogs: true, maxMs: 100 };
    expect(check(TestExpectationsSchema, expectations)).toEqual({ ok: true, value: expectations });
  });

  it.each([
    [{ outcome: "boom" }, '"outcome" must be one of ok, user, timeout, cpu, memory, invalid, cancelled, busy.'],
    [{ equals: Number.NaN }, "Invalid expect.equals: expect.equals is NaN, which JSON cannot carry."],
    [{ matches: "(?=x)" }, '"matches" is not a supported pattern: lookaround'],
    [{ noErrorLogs: "no" }, '"noErrorLogs" must be true or false.'],
    [{ maxMs: 0 }, '"maxMs" must be a whole number of milliseconds from 1 to 30000.'],
    [{ outcome: "user", matches: "x" }, "a run that ends in an error has none."],
  ])("refuses %j: %s", (value, message) => {
    const checked = check(TestExpectationsSchema, value);
    expect(checked.ok === false && checked.error).toContain(message);
  });
});
