/**
 * `gadget.tests.json`: the file, its cases and their expectations. Messages about a case leave out which
 * case; `checkTests` (in `gadget-tests.ts`) puts the file and `test "name": ` or `tests[i]: ` in front.
 */

import * as v from "valibot";
import { type RunErrorKind, TESTS_PATH } from "../wire-basics.ts";
import { MAX_RUN_TIMEOUT_MS, MAX_TEST_CASES, MAX_TEST_NAME_LENGTH, MAX_TEST_PATTERN_LENGTH } from "../limits.ts";
import { compileLinearRegex } from "../linear-regex.ts";
import { jsonValue } from "./json.ts";
import { boundedList, shape, strictShape } from "./objects.ts";

/** Every way a run can end, as a record so that a new error kind cannot be left out here. */
const OUTCOMES: Record<"ok" | RunErrorKind, true> = {
  ok: true,
  user: true,
  timeout: true,
  cpu: true,
  memory: true,
  invalid: true,
  cancelled: true,
  busy: true,
};
const OUTCOME_NAMES = Object.keys(OUTCOMES) as ("ok" | RunErrorKind)[];
const EXPECTATION_KEYS = ["outcome", "equals", "contains", "matches", "noErrorLogs", "maxMs"] as const;

const MATCHES = `"matches" must be a pattern of at most ${MAX_TEST_PATTERN_LENGTH} characters.`;
const MAX_MS = `"maxMs" must be a whole number of milliseconds from 1 to ${MAX_RUN_TIMEOUT_MS}.`;

/** What a case's run must show; each is optional. */
export const TestExpectationsSchema = v.pipe(
  strictShape(
    {
      /** `ok` (the default) or the error kind the run must end with. */
      outcome: v.optional(v.picklist(OUTCOME_NAMES, `"outcome" must be one of ${OUTCOME_NAMES.join(", ")}.`)),
      /** The result, exactly (deep equality). */
      equals: v.optional(jsonValue("expect.equals")),
      /** A JSON subset of the result: objects need only the listed keys; arrays match item by item. */
      contains: v.optional(jsonValue("expect.contains")),
      /** A regular expression the result (a string) must match, evaluated in linear time; a supported subset. */
      matches: v.optional(
        v.pipe(
          v.string(MATCHES),
          v.maxLength(MAX_TEST_PATTERN_LENGTH, MATCHES),
          v.rawCheck<string>(({ dataset, addIssue }) => {
            if (!dataset.typed) return;
            const compiled = compileLinearRegex(dataset.value);
            if (!compiled.ok) addIssue({ message: `"matches" is not a supported pattern: ${compiled.error}.` });
          }),
        ),
      ),
      /** No `console.error` lines (default false). */
      noErrorLogs: v.optional(v.boolean('"noErrorLogs" must be true or false.')),
      /** The run's total time must not exceed this. */
      maxMs: v.optional(
        v.pipe(v.number(MAX_MS), v.integer(MAX_MS), v.minValue(1, MAX_MS), v.maxValue(MAX_RUN_TIMEOUT_MS, MAX_MS)),
      ),
    },
    {
      notObject: '"expect" must be an object like { "outcome": "ok", "equals": "Echo: hi" }.',
      unknownKey: (key) => `unknown expectation "${key}"; the expectations are ${EXPECTATION_KEYS.join(", ")}.`,
    },
  ),
  v.check(
    (e) => (e.outcome ?? "ok") === "ok" || (e.equals ?? e.contains ?? e.matches) === undefined,
    '"equals", "contains" and "matches" check a result, and a run that ends in an error has none.',
  ),
);

const NAME = `"name" must be a non-empty string of at most ${MAX_TEST_NAME_LENGTH} characters.`;

/** One case: its name, the payload it runs with (null when left out) and what the run must show. */
export const TestCaseSchema = strictShape(
  {
    name: v.pipe(
      v.string(NAME),
      v.check((name) => name.trim() !== "", NAME),
      v.maxLength(MAX_TEST_NAME_LENGTH, NAME),
      v.trim(),
    ),
    input: v.optional(jsonValue("input"), null),
    expect: v.optional(TestExpectationsSchema, {}),
  },
  {
    notObject: 'a case must be an object { "name", "input", "expect" }.',
    unknownKey: (key) => `unknown field "${key}"; a case has "name", "input" and "expect".`,
  },
);

const FILE_SHAPE = `${TESTS_PATH} must hold { "tests": [ { "name": "…", "input": …, "expect": { "equals": … } } ] }.`;

/** The file's outer shape; its cases are checked one by one, so each message can name its case. */
export const TestFileSchema = shape(
  {
    tests: boundedList(v.unknown(), MAX_TEST_CASES, {
      notList: FILE_SHAPE,
      tooLong: (length) =>
        `${TESTS_PATH} has ${length} test cases; the limit is ${MAX_TEST_CASES}. Keep the ones that matter.`,
    }),
  },
  { notObject: FILE_SHAPE },
);
