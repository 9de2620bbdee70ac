import { describe, expect, it } from "vitest";
import { highlight } from "./highlight.ts";

const texts = (source: string, kind: string) =>
  highlight(source)
    .filter((token) => token.kind === kind)
    .map((token) => token.text);

describe("highlight", () => {
  it("splits code into kinds without losing a character", () => {
    const source = `// hi\ninterface Input { n: number }\nexport default { async run(p: Input) { return "x" + 42 + \`t\${n}\`; } }; /* end`;
    const tokens = highlight(source);
    expect(tokens.map((token) => token.text).join("")).toBe(source);
    expect(texts(source, "keyword")).toEqual(["interface", "export", "default", "async", "return"]);
    expect(texts(source, "comment")).toEqual(["// hi", "/* end"]);
    expect(texts(source, "type")).toEqual(["Input", "number"]);
    expect(texts(source, "number")).toEqual(["42"]);
    expect(texts(source, "function")).toEqual(["run"]);
  });

  it("colours a template string as a string, and the code in its placeholders as code", () => {
    const source = `const s = \`a \${count + 1} b\`;`;
    const tokens = highlight(source);
    expect(tokens.find((token) => token.text.includes("count"))?.kind).toBe("plain");
    expect(tokens.find((token) => token.text.includes("1"))?.kind).toBe("number");
    expect(texts(source, "string").join("")).toBe("`a  b`");
  });

  it("keeps markup in code as text", () => {
    const source = `const s = "<img src=x onerror=alert(1)>"; // <script>alert(2)</script>`;
    expect(
      highlight(source)
        .map((token) => token.text)
        .join(""),
    ).toBe(source);
  });
});
