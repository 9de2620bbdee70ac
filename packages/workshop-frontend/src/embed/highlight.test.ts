import { describe, expect, it } from "vitest";
import { highlight } from "./highlight.ts";

describe("highlight", () => {
  it("splits code into kinds without losing a character", () => {
    const source = `// hi\nexport default { async run(p: Input) { return "x" + 42 + \`t\${1}\`; } }; /* end`;
    const tokens = highlight(source);
    expect(tokens.map((token) => token.text).join("")).toBe(source);
    expect(tokens.filter((t) => t.kind === "keyword").map((t) => t.text)).toEqual([
      "export",
      "default",
      "async",
      "return",
    ]);
    expect(tokens.find((t) => t.kind === "comment")?.text).toBe("// hi");
    expect(tokens.find((t) => t.kind === "type")?.text).toBe("Input");
    expect(tokens.filter((t) => t.kind === "string").map((t) => t.text)).toEqual(['"x"', `\`t\${1}\``]);
    expect(tokens.at(-1)).toEqual({ kind: "comment", text: "/* end" });
  });

  it("keeps markup as text", () => {
    const tokens = highlight(`const s = "<img src=x onerror=alert(1)>";`);
    expect(tokens.map((token) => token.text).join("")).toContain("<img src=x onerror=alert(1)>");
  });
});
