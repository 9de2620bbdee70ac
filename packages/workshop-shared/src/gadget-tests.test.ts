import { describe, expect, it } from "vitest";
import type { GadgetFile, JsonValue, RunOutcome, TestCase } from "./api.ts";
import { appendTestCase, caseFromRun, checkTests, judgeCase, wordDiff } from "./gadget-tests.ts";
import {
  MAX_MATCH_STEPS,
  MAX_MATCH_SUBJECT_CHARS,
  MAX_TEST_CASES,
  MAX_TEST_FAILURES_PER_CASE,
  MAX_TEST_NAME_LENGTH,
  MAX_TEST_PATTERN_LENGTH,
  MAX_WORD_DIFF_TOKENS,
} from "./limits.ts";

const withTests = (content: unknown): GadgetFile[] => [
  { path: "gadget.json", content: "{}" },
  { path: "gadget.tests.json", content: typeof content === "string" ? content : JSON.stringify(content) },
];
const cases = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `case ${i}`, input: i, expect: {} }));
const ok = (result: JsonValue, totalMs = 5): RunOutcome => ({
  status: "ok",
  runId: "r",
  result,
  timings: { queueMs: 0, buildMs: 1, runMs: 1, totalMs },
});

describe("checkTests", () => {
  it("reads none when there is no file, and the cases when there is", () => {
    expect(checkTests([{ path: "gadget.json", content: "{}" }])).toEqual({ ok: true, value: [] });
    const checked = checkTests(
      withTests({ tests: [{ name: " hi ", input: { input: "hi" }, expect: { equals: "Echo: hi", maxMs: 500 } }] }),
    );
    expect(checked).toEqual({
      ok: true,
      value: [{ name: "hi", input: { input: "hi" }, expect: { equals: "Echo: hi", maxMs: 500 } }],
    });
  });

  it(`takes ${MAX_TEST_CASES} cases and refuses ${MAX_TEST_CASES + 1}`, () => {
    expect(checkTests(withTests({ tests: cases(MAX_TEST_CASES) })).ok).toBe(true);
    const over = checkTests(withTests({ tests: cases(MAX_TEST_CASES + 1) }));
    expect(over).toEqual({
      ok: false,
      error: `gadget.tests.json has ${MAX_TEST_CASES + 1} test cases; the limit is ${MAX_TEST_CASES}. Keep the ones that matter.`,
    });
  });

  it(`takes names of ${MAX_TEST_NAME_LENGTH} characters and refuses longer`, () => {
    const named = (name: string) => withTests({ tests: [{ name, input: null, expect: {} }] });
    expect(checkTests(named("x".repeat(MAX_TEST_NAME_LENGTH))).ok).toBe(true);
    expect(checkTests(named("x".repeat(MAX_TEST_NAME_LENGTH + 1))).ok).toBe(false);
  });

  it(`takes patterns of ${MAX_TEST_PATTERN_LENGTH} characters and refuses longer`, () => {
    const pattern = (length: number) =>
      withTests({ tests: [{ name: "p", input: null, expect: { matches: "a".repeat(length) } }] });
    expect(checkTests(pattern(MAX_TEST_PATTERN_LENGTH)).ok).toBe(true);
    expect(checkTests(pattern(MAX_TEST_PATTERN_LENGTH + 1))).toEqual({
      ok: false,
      error: `gadget.tests.json: test "p": "matches" must be a pattern of at most ${MAX_TEST_PATTERN_LENGTH} characters.`,
    });
  });

  it("says what is wrong and how to fix it", () => {
    const error = (content: unknown) => {
      const checked = checkTests(withTests(content));
      return checked.ok ? "" : checked.error;
    };
    expect(error("{ nope")).toMatch(/^gadget\.tests\.json is not valid JSON/);
    expect(error([])).toContain('must hold { "tests": [');
    expect(error({ tests: [{ name: "a", input: 1, expect: { equal: 1 } }] })).toBe(
      'gadget.tests.json: test "a": unknown expectation "equal"; the expectations are outcome, equals, contains, matches, noErrorLogs, maxMs.',
    );
    expect(error({ tests: [{ name: "a", input: 1, expect: { outcome: "boom" } }] })).toContain(
      '"outcome" must be one of ok, user',
    );
    expect(error({ tests: [{ name: "a", input: 1, expect: { matches: "(?=x)" } }] })).toContain(
      '"matches" is not a supported pattern: lookaround',
    );
    expect(error({ tests: [{ name: "a", input: 1, expect: { matches: "((((){1000}){1000}){1000}){1000}" } }] })).toBe(
      'gadget.tests.json: test "a": "matches" is not a supported pattern: "{1000}" at position 5 repeats something that can only match the empty string, like "()" or "(|)"; put something to match inside the group, or remove the repeat.',
    );
    expect(
      error({
        tests: [
          { name: "a", input: 1 },
          { name: "a", input: 2 },
        ],
      }),
    ).toContain('two test cases are named "a"');
    expect(error({ tests: [{ name: "a", input: 1, expect: { outcome: "user", equals: 1 } }] })).toContain(
      "a run that ends in an error has none",
    );
    expect(error({ tests: [{ name: "a", input: 1, expect: { maxMs: 0 } }] })).toContain(
      '"maxMs" must be a whole number',
    );
  });

  it("names a case by its place until its name is known, then by its name", () => {
    const error = (tests: unknown[]) => {
      const checked = checkTests(withTests({ tests }));
      return checked.ok ? "" : checked.error;
    };
    expect(error([{ name: "a" }, 7])).toBe(
      'gadget.tests.json: tests[1]: a case must be an object { "name", "input", "expect" }.',
    );
    expect(error([{ name: "" }])).toBe(
      `gadget.tests.json: tests[0]: "name" must be a non-empty string of at most ${MAX_TEST_NAME_LENGTH} characters.`,
    );
    expect(error([{ name: " b ", expect: { noErrorLogs: 1 } }])).toBe(
      'gadget.tests.json: test "b": "noErrorLogs" must be true or false.',
    );
    expect(error([{ name: "c", when: 1 }])).toBe(
      'gadget.tests.json: test "c": unknown field "when"; a case has "name", "input" and "expect".',
    );
  });
});

describe("judgeCase", () => {
  const test = (expect: TestCase["expect"]): TestCase => ({ name: "t", input: null, expect });

  it("passes when every expectation holds", () => {
    expect(
      judgeCase(test({ equals: { a: [1, 2] }, contains: { a: [1, 2] }, noErrorLogs: true, maxMs: 10 }), {
        outcome: ok({ a: [1, 2] }),
        errorLogs: 0,
      }),
    ).toEqual([]);
    expect(judgeCase(test({ matches: "^Echo: \\w+$" }), { outcome: ok("Echo: hi"), errorLogs: 0 })).toEqual([]);
  });

  it("lists each difference with its path, expected and actual", () => {
    const failures = judgeCase(test({ equals: { a: 1, b: [1, 2], c: "x" } }), {
      outcome: ok({ a: 2, b: [1, 3], d: true }),
      errorLogs: 0,
    });
    expect(failures.map(({ path, expected, actual, missing }) => ({ path, expected, actual, missing }))).toEqual([
      { path: "$.a", expected: 1, actual: 2, missing: undefined },
      { path: "$.b[1]", expected: 2, actual: 3, missing: undefined },
      { path: "$.c", expected: "x", actual: null, missing: true },
      { path: "$.d", expected: null, actual: true, missing: undefined },
    ]);
  });

  it("checks a subset with contains: extra keys are fine, missing or different ones are not", () => {
    expect(
      judgeCase(test({ contains: { user: { name: "ada" } } }), {
        outcome: ok({ user: { name: "ada", id: 1 }, n: 2 }),
        errorLogs: 0,
      }),
    ).toEqual([]);
    const failures = judgeCase(test({ contains: { user: { name: "bob", role: "x" } } }), {
      outcome: ok({ user: { name: "ada" } }),
      errorLogs: 0,
    });
    expect(failures.map((f) => [f.check, f.path])).toEqual([
      ["contains", "$.user.name"],
      ["contains", "$.user.role"],
    ]);
  });

  it("checks the outcome kind, error logs, duration and patterns", () => {
    const error: RunOutcome = {
      status: "error",
      runId: "r",
      kind: "user",
      message: "TypeError: boom",
      timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 3 },
    };
    expect(judgeCase(test({}), { outcome: error, errorLogs: 0 })[0]).toMatchObject({
      check: "outcome",
      expected: "ok",
      actual: "user",
    });
    expect(judgeCase(test({ outcome: "user" }), { outcome: error, errorLogs: 0 })).toEqual([]);
    expect(judgeCase(test({ noErrorLogs: true }), { outcome: ok(1), errorLogs: 2 })[0]).toMatchObject({
      check: "noErrorLogs",
      actual: 2,
    });
    expect(judgeCase(test({ maxMs: 10 }), { outcome: ok(1, 11), errorLogs: 0 })[0]).toMatchObject({ check: "maxMs" });
    expect(judgeCase(test({ matches: "^x" }), { outcome: ok("yx"), errorLogs: 0 })[0]).toMatchObject({
      check: "matches",
    });
    expect(judgeCase(test({ matches: "^x" }), { outcome: ok(5), errorLogs: 0 })[0]?.message).toContain(
      "needs a string",
    );
  });
});

describe("judgeCase limits", () => {
  const test = (expect: TestCase["expect"]): TestCase => ({ name: "t", input: null, expect });

  it(`matches results of ${MAX_MATCH_SUBJECT_CHARS} characters and refuses longer ones`, () => {
    expect(
      judgeCase(test({ matches: "x$" }), { outcome: ok("x".repeat(MAX_MATCH_SUBJECT_CHARS)), errorLogs: 0 }),
    ).toEqual([]);
    const [failure] = judgeCase(test({ matches: "x$" }), {
      outcome: ok("x".repeat(MAX_MATCH_SUBJECT_CHARS + 1)),
      errorLogs: 0,
    });
    expect(failure?.message).toBe(
      `the result has ${MAX_MATCH_SUBJECT_CHARS + 1} characters; "matches" checks at most ${MAX_MATCH_SUBJECT_CHARS}`,
    );
  });

  it(`does up to ${MAX_MATCH_STEPS} steps of matching and refuses a check that could take more`, () => {
    // "a{499}" and the match state are 500 states: 999 characters make exactly 500 × 1000 steps.
    const pattern = "a{499}";
    expect(MAX_MATCH_STEPS).toBe(500 * 1000);
    expect(judgeCase(test({ matches: pattern }), { outcome: ok("a".repeat(999)), errorLogs: 0 })).toEqual([]);
    const [failure] = judgeCase(test({ matches: pattern }), { outcome: ok("a".repeat(1000)), errorLogs: 0 });
    expect(failure?.message).toContain(`could take 500500 steps, more than the ${MAX_MATCH_STEPS} a check may`);
  });

  it(`lists ${MAX_TEST_FAILURES_PER_CASE} differences and says there are more`, () => {
    const values = (n: number, v: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, v]));
    const exactly = judgeCase(test({ equals: values(MAX_TEST_FAILURES_PER_CASE, 1) }), {
      outcome: ok(values(MAX_TEST_FAILURES_PER_CASE, 2)),
      errorLogs: 0,
    });
    expect(exactly).toHaveLength(MAX_TEST_FAILURES_PER_CASE);
    expect(exactly.every((failure) => failure.path.startsWith("$.k"))).toBe(true);
    const more = judgeCase(test({ equals: values(MAX_TEST_FAILURES_PER_CASE + 5, 1) }), {
      outcome: ok(values(MAX_TEST_FAILURES_PER_CASE + 5, 2)),
      errorLogs: 0,
    });
    expect(more).toHaveLength(MAX_TEST_FAILURES_PER_CASE);
    expect(more.at(-1)?.message).toBe("…and more differences (the case's run record has the whole result)");
  });
});

describe("appendTestCase", () => {
  it("creates the file, then appends with a fresh name, and refuses a broken file", () => {
    const files: GadgetFile[] = [{ path: "gadget.json", content: "{}" }];
    const first = appendTestCase(files, caseFromRun("case", { input: "hi" }, ok("Echo: hi")));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    const next = [...files, { path: "gadget.tests.json", content: first.value }];
    const second = appendTestCase(next, caseFromRun("case", 1, ok(2)));
    expect(second.ok && checkTests([...files, { path: "gadget.tests.json", content: second.value }])).toEqual({
      ok: true,
      value: [
        { name: "case", input: { input: "hi" }, expect: { outcome: "ok", equals: "Echo: hi" } },
        { name: "case (2)", input: 1, expect: { outcome: "ok", equals: 2 } },
      ],
    });
    expect(appendTestCase([...files, { path: "gadget.tests.json", content: "{" }], caseFromRun("x", 1, ok(1))).ok).toBe(
      false,
    );
  });
});

describe("wordDiff", () => {
  const changedWords = (segments: { text: string; changed: boolean }[]) =>
    segments.filter((segment) => segment.changed).map((segment) => segment.text);

  it("marks only the words that differ, and keeps each side's whole text", () => {
    const diff = wordDiff('"Echo: hi there"', '"Echo: hello there"');
    expect(changedWords(diff.expected)).toEqual(["hi"]);
    expect(changedWords(diff.actual)).toEqual(["hello"]);
    expect(diff.expected.map((segment) => segment.text).join("")).toBe('"Echo: hi there"');
    expect(diff.actual.map((segment) => segment.text).join("")).toBe('"Echo: hello there"');
  });

  it("finds words added on one side only, and marks nothing for equal texts", () => {
    const diff = wordDiff('{"a":1}', '{"a":1,"b":2}');
    expect(changedWords(diff.expected)).toEqual([]);
    expect(changedWords(diff.actual)).toEqual([',"b":2']);
    expect(wordDiff("same words", "same words")).toEqual({
      expected: [{ text: "same words", changed: false }],
      actual: [{ text: "same words", changed: false }],
    });
    expect(wordDiff("", "x")).toEqual({ expected: [], actual: [{ text: "x", changed: true }] });
  });

  it(`compares word by word up to ${MAX_WORD_DIFF_TOKENS} tokens a side, and marks a longer value changed whole`, () => {
    // Each mark is a token of its own.
    const tokens = (count: number, last: string) => `${".".repeat(count - 1)}${last}`;
    const atLimit = wordDiff(tokens(MAX_WORD_DIFF_TOKENS, "x"), tokens(MAX_WORD_DIFF_TOKENS, "y"));
    expect(changedWords(atLimit.expected)).toEqual(["x"]);
    const past = wordDiff(tokens(MAX_WORD_DIFF_TOKENS + 1, "x"), tokens(MAX_WORD_DIFF_TOKENS, "y"));
    expect(past.expected).toEqual([{ text: tokens(MAX_WORD_DIFF_TOKENS + 1, "x"), changed: true }]);
  });
});
