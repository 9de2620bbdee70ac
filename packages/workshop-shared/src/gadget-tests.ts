/**
 * `gadget.tests.json`: parsing and checking the file (with messages like the manifest's), and judging
 * one case's run against its expectations. Framework-free; the server runs it after each case, the IDE
 * uses it to show the cases and to add one from a finished run.
 */

import {
  type GadgetFile,
  type JsonValue,
  type RunOutcome,
  type TestCase,
  type TestFailure,
  TESTS_PATH,
} from "./api.ts";
import {
  MAX_MATCH_STEPS,
  MAX_MATCH_SUBJECT_CHARS,
  MAX_TEST_CASES,
  MAX_TEST_FAILURES_PER_CASE,
  MAX_WORD_DIFF_TOKENS,
} from "./limits.ts";
import { compileLinearRegex } from "./linear-regex.ts";
import { type Checked, check, issueSentence, parseWithIssue } from "./schemas/check.ts";
import { TestCaseSchema, TestFileSchema } from "./schemas/test-file.ts";

const fail = <T>(error: string): Checked<T> => ({ ok: false, error });

/** The cases of a gadget's files: none when it has no test file, an error when the file breaks a rule. */
export function checkTests(files: readonly GadgetFile[]): Checked<TestCase[]> {
  const file = files.find((f) => f.path === TESTS_PATH);
  if (!file) return { ok: true, value: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(file.content);
  } catch (error) {
    return fail(`${TESTS_PATH} is not valid JSON: ${(error as Error).message}.`);
  }
  const list = check(TestFileSchema, raw);
  if (!list.ok) return list;
  const names = new Set<string>();
  const cases: TestCase[] = [];
  for (const [i, item] of list.value.tests.entries()) {
    const parsed = parseWithIssue(TestCaseSchema, item);
    if (!parsed.ok) {
      // The name is checked first: an issue anywhere else comes from a case that can be called by its name.
      const { issue } = parsed;
      const named = issue.path !== undefined && issue.path[0]?.key !== "name";
      const label = named ? `test "${(item as { name: string }).name.trim()}"` : `tests[${i}]`;
      return fail(`${TESTS_PATH}: ${label}: ${issueSentence(issue)}`);
    }
    const checked = parsed.value;
    if (names.has(checked.name))
      return fail(`${TESTS_PATH}: two test cases are named "${checked.name}"; give each its own name.`);
    names.add(checked.name);
    cases.push(checked);
  }
  return { ok: true, value: cases };
}

/** What a case's run produced, as the judge needs it. */
export interface CaseRun {
  outcome: RunOutcome;
  /** `console.error` lines the run wrote. */
  errorLogs: number;
}

/** The expectations that did not hold (empty: the case passed). */
export function judgeCase(test: TestCase, run: CaseRun): TestFailure[] {
  const failures: TestFailure[] = [];
  const { expect } = test;
  const { outcome } = run;
  const wanted = expect.outcome ?? "ok";
  const got = outcome.status === "ok" ? "ok" : outcome.kind;
  if (wanted !== got) {
    failures.push({
      check: "outcome",
      path: "$",
      expected: wanted,
      actual: got,
      message:
        outcome.status === "ok"
          ? `expected the run to end with "${wanted}", it ended ok`
          : `expected "${wanted}", the run ended with ${got}: ${outcome.message}`,
    });
  }
  if (outcome.status === "ok") {
    if (expect.equals !== undefined) diffEquals(expect.equals, outcome.result, "$", failures, "equals");
    if (expect.contains !== undefined) diffContains(expect.contains, outcome.result, "$", failures);
    if (expect.matches !== undefined) checkMatches(expect.matches, outcome.result, failures);
  }
  if (expect.noErrorLogs && run.errorLogs > 0)
    failures.push({
      check: "noErrorLogs",
      path: "$",
      expected: 0,
      actual: run.errorLogs,
      message: `the run wrote ${run.errorLogs} console.error line${run.errorLogs === 1 ? "" : "s"}`,
    });
  if (expect.maxMs !== undefined && outcome.timings.totalMs > expect.maxMs)
    failures.push({
      check: "maxMs",
      path: "$",
      expected: expect.maxMs,
      actual: outcome.timings.totalMs,
      message: `the run took ${outcome.timings.totalMs} ms, more than ${expect.maxMs} ms`,
    });
  if (failures.length > MAX_TEST_FAILURES_PER_CASE) {
    // Collecting stopped once past the cap, so the rest are not counted: the run record has the result.
    failures.splice(MAX_TEST_FAILURES_PER_CASE - 1);
    failures.push({
      check: failures[0]?.check ?? "equals",
      path: "$",
      expected: null,
      actual: null,
      message: "…and more differences (the case's run record has the whole result)",
    });
  }
  return failures;
}

const isObject = (value: JsonValue): value is { [key: string]: JsonValue } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const keyPath = (path: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;

/** Stops collecting once a case has more differences than it will show. */
const full = (failures: TestFailure[]) => failures.length > MAX_TEST_FAILURES_PER_CASE;

function diffEquals(
  expected: JsonValue,
  actual: JsonValue,
  path: string,
  failures: TestFailure[],
  check: "equals" | "contains",
): void {
  if (full(failures)) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length)
      failures.push({
        check,
        path: `${path}.length`,
        expected: expected.length,
        actual: actual.length,
        message: `expected ${expected.length} items, got ${actual.length}`,
      });
    for (let i = 0; i < Math.min(expected.length, actual.length); i++) {
      if (check === "equals")
        diffEquals(expected[i] as JsonValue, actual[i] as JsonValue, `${path}[${i}]`, failures, check);
      else diffContains(expected[i] as JsonValue, actual[i] as JsonValue, `${path}[${i}]`, failures);
    }
    return;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key))
        failures.push({
          check,
          path: keyPath(path, key),
          expected: value,
          actual: null,
          missing: true,
          message: "missing",
        });
      else diffEquals(value, actual[key] as JsonValue, keyPath(path, key), failures, check);
    }
    for (const [key, value] of Object.entries(actual))
      if (!Object.hasOwn(expected, key))
        failures.push({ check, path: keyPath(path, key), expected: null, actual: value, message: "not expected" });
    return;
  }
  if (expected !== actual)
    failures.push({ check, path, expected, actual, message: `expected ${short(expected)}, got ${short(actual)}` });
}

/** Objects need only the expected keys; arrays match item by item; anything else must be equal. */
function diffContains(expected: JsonValue, actual: JsonValue, path: string, failures: TestFailure[]): void {
  if (full(failures)) return;
  if (isObject(expected) && isObject(actual)) {
    for (const [key, value] of Object.entries(expected)) {
      if (!Object.hasOwn(actual, key))
        failures.push({
          check: "contains",
          path: keyPath(path, key),
          expected: value,
          actual: null,
          missing: true,
          message: "missing",
        });
      else diffContains(value, actual[key] as JsonValue, keyPath(path, key), failures);
    }
    return;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    diffEquals(expected, actual, path, failures, "contains");
    return;
  }
  if (expected !== actual)
    failures.push({
      check: "contains",
      path,
      expected,
      actual,
      message: `expected ${short(expected)}, got ${short(actual)}`,
    });
}

function checkMatches(pattern: string, result: JsonValue, failures: TestFailure[]): void {
  const compiled = compileLinearRegex(pattern);
  const push = (message: string) =>
    failures.push({ check: "matches", path: "$", expected: pattern, actual: truncate(result), message });
  if (!compiled.ok) return void push(`the pattern is not supported: ${compiled.error}`);
  if (typeof result !== "string") return void push(`"matches" needs a string result, got ${short(result)}`);
  if (result.length > MAX_MATCH_SUBJECT_CHARS)
    return void push(`the result has ${result.length} characters; "matches" checks at most ${MAX_MATCH_SUBJECT_CHARS}`);
  const cost = compiled.regex.cost(result.length);
  if (cost > MAX_MATCH_STEPS)
    return void push(
      `matching this pattern against ${result.length} characters could take ${cost} steps, more than the ${MAX_MATCH_STEPS} a check may; use a pattern with fewer or smaller repeats`,
    );
  if (!compiled.regex.test(result)) push(`${short(result)} does not match /${pattern}/`);
}

/** Values inside a diff stay small: the run record holds the whole result. */
function truncate(value: JsonValue): JsonValue {
  if (typeof value === "string") return value.length > 500 ? `${value.slice(0, 500)}…` : value;
  if (typeof value === "object" && value !== null) {
    const text = JSON.stringify(value);
    return text.length > 500 ? `${text.slice(0, 500)}…` : value;
  }
  return value;
}

function short(value: JsonValue): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A stretch of a value's text in a word diff, `changed` when the other side does not have it. */
export interface DiffSegment {
  text: string;
  changed: boolean;
}

/** Words, runs of spaces, and each other mark (`{`, `"`, `:`) as one token. */
const tokensOf = (text: string): string[] => text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];

function segments(tokens: readonly string[], kept: readonly boolean[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  tokens.forEach((text, i) => {
    const changed = !kept[i];
    const last = out.at(-1);
    if (last && last.changed === changed) last.text += text;
    else out.push({ text, changed });
  });
  return out;
}

/**
 * The expected and actual texts of a difference, each cut into stretches the other side has and the
 * words it does not (the longest common subsequence of their tokens), for a diff that highlights what
 * changed. Hand-written rather than a diff library: the shared package stays free of dependencies for a
 * quadratic table over at most MAX_WORD_DIFF_TOKENS tokens a side.
 *
 * @example wordDiff('"Echo: hi"', '"Echo: hello"') // expected: [{ '"Echo: ', false }, { 'hi', true }, { '"', false }]
 */
export function wordDiff(expected: string, actual: string): { expected: DiffSegment[]; actual: DiffSegment[] } {
  const a = tokensOf(expected);
  const b = tokensOf(actual);
  if (a.length > MAX_WORD_DIFF_TOKENS || b.length > MAX_WORD_DIFF_TOKENS)
    return {
      expected: expected === "" ? [] : [{ text: expected, changed: true }],
      actual: actual === "" ? [] : [{ text: actual, changed: true }],
    };
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    const row = lengths[i] as Uint16Array;
    const below = lengths[i + 1] as Uint16Array;
    for (let j = b.length - 1; j >= 0; j--)
      row[j] = a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
  }
  const keptA = new Array<boolean>(a.length).fill(false);
  const keptB = new Array<boolean>(b.length).fill(false);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      keptA[i++] = true;
      keptB[j++] = true;
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return { expected: segments(a, keptA), actual: segments(b, keptB) };
}

/** A finished run as a new case (the person edits it afterwards): its input and what it produced. */
export function caseFromRun(name: string, input: JsonValue, outcome: RunOutcome): TestCase {
  return {
    name,
    input,
    expect: outcome.status === "ok" ? { outcome: "ok", equals: outcome.result } : { outcome: outcome.kind },
  };
}

/**
 * The test file with `test` appended (created when missing), formatted for reading. Refuses a file
 * that does not parse, so a person's edits are never overwritten.
 */
export function appendTestCase(files: readonly GadgetFile[], test: TestCase): Checked<string> {
  const current = files.find((file) => file.path === TESTS_PATH);
  const existing = current ? checkTests(files) : ({ ok: true, value: [] } as Checked<TestCase[]>);
  if (!existing.ok) return fail(`Fix ${TESTS_PATH} first: ${existing.error}`);
  if (existing.value.length >= MAX_TEST_CASES)
    return fail(`${TESTS_PATH} already has ${MAX_TEST_CASES} test cases, the limit.`);
  let name = test.name;
  for (let n = 2; existing.value.some((c) => c.name === name); n++) name = `${test.name} (${n})`;
  const raw = current ? (JSON.parse(current.content) as { tests: unknown[] }) : { tests: [] };
  raw.tests.push({ ...test, name });
  return { ok: true, value: `${JSON.stringify(raw, null, 2)}\n` };
}
