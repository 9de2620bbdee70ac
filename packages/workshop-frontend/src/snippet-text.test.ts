import { describe, expect, it } from "vitest";
import { jsonLiteral, shellWord } from "./snippet-text.ts";

describe("shellWord", () => {
  it("single-quotes, so nothing in it is expanded or ends the word", () => {
    expect(shellWord("echo@3")).toBe("'echo@3'");
    expect(shellWord("demo$(touch /tmp/x)")).toBe("'demo$(touch /tmp/x)'");
    expect(shellWord("a'b; rm -rf ~")).toBe(`'a'\\''b; rm -rf ~'`);
    expect(shellWord('`id` "$HOME" \\ !')).toBe("'`id` \"$HOME\" \\ !'");
  });
});

describe("jsonLiteral", () => {
  it("is JSON.stringify with controls and bidi characters as \\u escapes", () => {
    const odd = "a\u202eb\u2066c\u200fd\u0085e\u007f\u0007\n\u2028";
    const text = jsonLiteral({ [odd]: odd });
    expect(text).toBe(
      '{"a\\u202eb\\u2066c\\u200fd\\u0085e\\u007f\\u0007\\n\\u2028":"a\\u202eb\\u2066c\\u200fd\\u0085e\\u007f\\u0007\\n\\u2028"}',
    );
    expect(/^[\x20-\x7e]*$/.test(text)).toBe(true);
    expect(JSON.parse(text)).toEqual({ [odd]: odd });
  });

  it("keeps other text as it is, indents when asked, and writes undefined as null", () => {
    expect(jsonLiteral('héllo \u{1F600} "q"')).toBe('"héllo \u{1F600} \\"q\\""');
    expect(jsonLiteral({ a: [1] }, 2)).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(jsonLiteral(undefined)).toBe("null");
  });
});
