import { describe, expect, it } from "vitest";
import { MAX_PATTERN_COMPILE_STEPS, MAX_PATTERN_STATES, MAX_TEST_PATTERN_LENGTH } from "./limits.ts";
import { compileLinearRegex } from "./linear-regex.ts";

const test = (pattern: string, text: string) => {
  const compiled = compileLinearRegex(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.regex.test(text);
};

describe("compileLinearRegex", () => {
  it("agrees with RegExp on the supported subset", () => {
    const cases: [string, string][] = [
      ["^Echo: \\w+$", "Echo: hi"],
      ["^Echo: \\w+$", "Echo: hi there"],
      ["hi", "oh hi there"],
      ["^$", ""],
      ["a|b|c", "xxc"],
      ["^(ab)+$", "ababab"],
      ["^(ab)+$", "ababa"],
      ["^a{2,3}$", "aa"],
      ["^a{2,3}$", "aaaa"],
      ["^a{2,}$", "aaaaa"],
      ["^a{2}b?$", "aab"],
      ["[^0-9]+", "123"],
      ["^[a-c\\d_-]+$", "ab-1_c"],
      ["^\\d{3}-\\d{4}$", "555-1234"],
      ["colou?r", "the color"],
      ["^.+$", "line"],
      ["^.+$", "two\nlines"],
      ["\\.json$", "gadget.json"],
      ["^(?:x|y)*z$", "xyxyz"],
      ["^\\S+\\s\\S+$", "a b"],
      ["^[\\W]+$", "!?"],
      ["\\u0041\\x42", "AB"],
      ["^(a*)*$", "aaaa"],
      ["^a*?b$", "aab"],
      // Bodies that can match the empty string and something else are still repeated.
      ["^(a|){3}$", "aa"],
      ["^(|a)+$", "aaa"],
      ["^(a?b?){2}$", "ab"],
      ["^(a{0}b)+$", "bb"],
    ];
    for (const [pattern, text] of cases)
      expect(test(pattern, text), `${pattern} on ${text}`).toBe(new RegExp(pattern).test(text));
  });

  it("takes linear time on patterns that make backtracking engines explode", () => {
    // (a+)+$ against "aaaa…b" is exponential for RegExp; here it is one pass.
    expect(test("^(a+)+$", `${"a".repeat(10_000)}b`)).toBe(false);
    expect(test("(a|a)*c", "a".repeat(10_000))).toBe(false);
    expect(test("^(a|aa)+$", "a".repeat(10_000))).toBe(true);
  });

  it("refuses what it does not support, saying what", () => {
    for (const [pattern, message] of [
      ["(a)\\1", "\\1 is not supported"],
      ["(?=a)", "lookaround"],
      ["\\bword", "word boundaries"],
      ["a{", "must start a repeat"],
      ["(a", 'missing ")"'],
      ["a)", 'unmatched ")"'],
      ["*a", "nothing to repeat"],
      ["[z-a]", "goes backwards"],
      ["a{5,2}", "wrong way round"],
      ["[abc", 'missing "]"'],
    ] as const) {
      const compiled = compileLinearRegex(pattern);
      expect(compiled.ok).toBe(false);
      if (!compiled.ok) expect(compiled.error).toContain(message);
    }
  });

  it(`compiles up to ${MAX_PATTERN_STATES} states and refuses one more`, () => {
    // One state per character matched plus the final match state: a{1000} and b{999} make N.
    expect(compileLinearRegex(`a{1000}b{${MAX_PATTERN_STATES - 1001}}`).ok).toBe(true);
    const over = compileLinearRegex(`a{1000}b{${MAX_PATTERN_STATES - 1000}}`);
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error).toContain(`more than ${MAX_PATTERN_STATES} states`);
  });

  it(`compiles patterns of ${MAX_TEST_PATTERN_LENGTH} characters and refuses longer ones`, () => {
    expect(compileLinearRegex("a".repeat(MAX_TEST_PATTERN_LENGTH)).ok).toBe(true);
    expect(compileLinearRegex("a".repeat(MAX_TEST_PATTERN_LENGTH + 1))).toMatchObject({
      ok: false,
      error: `the pattern has ${MAX_TEST_PATTERN_LENGTH + 1} characters; patterns have at most ${MAX_TEST_PATTERN_LENGTH}`,
    });
  });

  it("refuses nested counted repeats of an empty group at once, saying where and how to fix it", () => {
    // Each copy of an empty group adds no state, so this once looped 10¹² times under the state cap.
    const compiled = compileLinearRegex("((((){1000}){1000}){1000}){1000}");
    expect(compiled).toMatchObject({
      ok: false,
      error:
        '"{1000}" at position 5 repeats something that can only match the empty string, like "()" or "(|)"; put something to match inside the group, or remove the repeat',
    });
    // Refused at the first repeat it reads, before any of the copies.
    expect(compiled.steps).toBeLessThan(20);
  });

  it("refuses every repeat of something that can only match the empty string", () => {
    for (const [pattern, repeat] of [
      ["(){3}", '"{3}" at position 2'],
      ["(|){5}", '"{5}" at position 3'],
      ["(?:)*", '"*" at position 4'],
      ["x(?:|)+?", '"+" at position 6'],
      ["(()|(|)){2,}", '"{2,}" at position 8'],
      ["(a{0}){9}", '"{9}" at position 6'],
      ["(^$)?", '"?" at position 4'],
      ["((?:)*)*", '"*" at position 5'],
    ] as const) {
      const compiled = compileLinearRegex(pattern);
      expect(compiled.ok, pattern).toBe(false);
      if (!compiled.ok) expect(compiled.error, pattern).toContain(`${repeat} repeats something that can only match`);
    }
  });

  it(`compiles or refuses the worst patterns within ${MAX_PATTERN_COMPILE_STEPS} steps`, () => {
    const EMPTY = "can only match the empty string";
    const STATES = `more than ${MAX_PATTERN_STATES} states`;
    const STEPS = `more than ${MAX_PATTERN_COMPILE_STEPS} steps to compile`;
    const letters = "abcdefghijklmnopqrstuvwxyz".split("");
    const cases: [string, string, "compiled" | string][] = [
      ["nested counted repeats of an empty group", "((((){1000}){1000}){1000}){1000}", EMPTY],
      ["nested counted repeats of a character", "((a{1000}){1000}){1000}", STATES],
      ["four levels of counted repeats", "((((a){1000}){1000}){1000}){1000}", STATES],
      ["a repeated repeat", "a{1000}{1000}", STATES],
      ["a repeated alternation of empties", "(|||){1000}", EMPTY],
      ["a repeated alternation with empties", "(a|||){1000}", STATES],
      ["nested stars and pluses over empties", "((()*)+)*", EMPTY],
      ["nested stars and pluses over a character", "((a*)+)*", "compiled"],
      ["a long chain of stars", `a${"*".repeat(190)}`, "compiled"],
      ["a long alternation", letters.join("|").repeat(3).slice(0, 150), "compiled"],
      ["a long alternation, repeated", `(${letters.join("|")}){70}`, STATES],
      // Every copy visits 95 empty groups but adds one state: only the step budget catches it.
      ["many empty groups in a repeated group", `(${"()".repeat(95)}a){1000}`, STEPS],
      ["a class of every character, repeated", "[\\u0000-\\uffff]{1000}", "compiled"],
      ["a class of many complements, repeated", `[${"\\S\\W\\D".repeat(20)}]{1000}`, "compiled"],
      ["a class of many single characters, repeated", `[${letters.join("").repeat(7)}]{1000}`, "compiled"],
      ["deeply nested empty groups", `${"(".repeat(100)}${")".repeat(100)}`, "compiled"],
      ["deeply nested groups", `${"(".repeat(99)}a${")".repeat(99)}`, "compiled"],
      ["deeply nested groups, repeated", `${"(?:".repeat(40)}a${")".repeat(40)}{48}`, "compiled"],
    ];
    for (const [what, pattern, outcome] of cases) {
      expect(pattern.length, what).toBeLessThanOrEqual(MAX_TEST_PATTERN_LENGTH);
      const compiled = compileLinearRegex(pattern);
      expect(compiled.steps, what).toBeLessThanOrEqual(MAX_PATTERN_COMPILE_STEPS);
      if (outcome === "compiled") expect(compiled.ok, what).toBe(true);
      else expect(compiled.ok ? "compiled" : compiled.error, what).toContain(outcome);
    }
    // The budget, not the state cap, is what refuses the group of empty groups.
    expect(compileLinearRegex(`(${"()".repeat(95)}a){1000}`, Number.POSITIVE_INFINITY).ok).toBe(true);
  });

  it(`compiles a pattern of exactly ${MAX_PATTERN_COMPILE_STEPS} steps and refuses one of a step more`, () => {
    // A repeated group of empty groups costs many steps; each character of the class after it costs one.
    const withClass = (characters: number) => `(${"()".repeat(50)}a){941}[${"b".repeat(characters)}]`;
    const one = compileLinearRegex(withClass(1), Number.POSITIVE_INFINITY).steps;
    const atBudget = withClass(MAX_PATTERN_COMPILE_STEPS - one + 1);
    expect(compileLinearRegex(atBudget)).toMatchObject({ ok: true, steps: MAX_PATTERN_COMPILE_STEPS });
    const over = withClass(MAX_PATTERN_COMPILE_STEPS - one + 2);
    expect(compileLinearRegex(over, Number.POSITIVE_INFINITY).steps).toBe(MAX_PATTERN_COMPILE_STEPS + 1);
    expect(compileLinearRegex(over)).toEqual({
      ok: false,
      error: `the pattern takes more than ${MAX_PATTERN_COMPILE_STEPS} steps to compile; use smaller repeats or fewer nested groups`,
      steps: MAX_PATTERN_COMPILE_STEPS,
    });
  });

  it("looks characters up in classes of many ranges as RegExp does", () => {
    // Ranges are merged and searched by halves: overlapping, touching and complemented ones included.
    for (const pattern of [
      "[zyxa-cb-dA-F0\\d_\\s]",
      "[^\\S\\W\\Dk-m]",
      "[\\D\\w]",
      "[\\u00ff-\\u0fff\\u0100-\\u1000]",
    ]) {
      const compiled = compileLinearRegex(pattern);
      if (!compiled.ok) throw new Error(compiled.error);
      const native = new RegExp(pattern);
      for (let code = 0; code <= 0x3100; code++) {
        const text = String.fromCharCode(code);
        if (compiled.regex.test(text) !== native.test(text)) expect(`${pattern} on ${code}`).toBe("the same as RegExp");
      }
    }
  });
});
