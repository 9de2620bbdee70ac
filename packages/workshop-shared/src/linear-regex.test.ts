import { describe, expect, it } from "vitest";
import { MAX_PATTERN_STATES } from "./limits.ts";
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
    // One state per character plus the final match state: a{1000} and 999 more characters make N.
    expect(compileLinearRegex(`a{1000}${"b".repeat(MAX_PATTERN_STATES - 1001)}`).ok).toBe(true);
    const over = compileLinearRegex(`a{1000}${"b".repeat(MAX_PATTERN_STATES - 1000)}`);
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.error).toContain(`more than ${MAX_PATTERN_STATES} states`);
  });
});
