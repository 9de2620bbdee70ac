import type { AgentSummary } from "@gadgets/workshop-shared/api";
import { MAX_CODE_MODE_BYTES, MAX_CODE_MODE_TYPES_CHARS, MAX_FILE_BYTES } from "@gadgets/workshop-shared/limits";
import { check, CodeModeCodeSchema } from "@gadgets/workshop-shared/schemas";
import { describe, expect, it } from "vitest";
import { codeModeFiles, CODE_FILE } from "./code-mode-gadget.ts";
import { codeModeDeclaration, codeModeExample, codeModeTypesText } from "./code-mode-types.ts";

function agent(name: string, more: Partial<AgentSummary> = {}): AgentSummary {
  return {
    agentId: name,
    name,
    description: "",
    latestVersion: 1,
    draftId: "d",
    updatedAt: 0,
    grants: {},
    docs: "",
    ...more,
  };
}

describe("codeModeDeclaration", () => {
  it("declares each agent from its schemas, quoting names that are not identifiers", () => {
    const text = codeModeDeclaration([
      agent("weather", {
        description: "Current weather */ for a city",
        inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
      }),
      agent("my-agent"),
    ]);
    expect(text).toMatch(/^\/\*\*[\s\S]*declare const agents: \{\n/);
    expect(text).toContain('"my-agent"(input?: unknown): Promise<unknown>;');
    expect(text).toMatch(
      /\/\*\* Current weather \* \/ for a city \*\/\n {2}weather\(input: \{[\s\S]*city: string[\s\S]*\}\): Promise<\{[\s\S]*tempC: number[\s\S]*\}>;/,
    );
    expect(text.trimEnd().endsWith("};")).toBe(true);
  });

  it("stays within its cap, naming the agents it could not type", () => {
    const many = Array.from({ length: 2000 }, (_, i) =>
      agent(`agent${String(i).padStart(4, "0")}`, { description: "x".repeat(40) }),
    );
    const text = codeModeDeclaration(many);
    expect(text.length).toBeLessThan(MAX_CODE_MODE_TYPES_CHARS + 2200);
    expect(text).toMatch(/\/\/ \d+ more agents, declared without types: /);
    expect(text).toContain("[name: string]: (input?: unknown) => Promise<unknown>;");
  });

  it("answers a valid declaration file whatever the agents' names: a name's */ never ends the example's comment", () => {
    const text = codeModeTypesText([agent("a*/b")]);
    const comment = text.slice(text.lastIndexOf("\n/*\n"));
    expect(comment.indexOf("*/")).toBe(comment.length - "*/\n".length);
    expect(comment).toContain('agents["a* /b"]');
  });

  it("gives an example with the first agent", () => {
    expect(codeModeExample([agent("my-agent")])).toContain('await agents["my-agent"]({});');
    expect(codeModeExample([])).toContain("await agents.echo(");
  });
});

describe("codeModeFiles", () => {
  it(`puts code of MAX_CODE_MODE_BYTES (${MAX_CODE_MODE_BYTES}) in a file within MAX_FILE_BYTES`, () => {
    const code = codeModeFiles("x".repeat(MAX_CODE_MODE_BYTES)).find((file) => file.path === CODE_FILE)?.content ?? "";
    expect(new TextEncoder().encode(code).byteLength).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(check(CodeModeCodeSchema, "x".repeat(MAX_CODE_MODE_BYTES)).ok).toBe(true);
    expect(check(CodeModeCodeSchema, "x".repeat(MAX_CODE_MODE_BYTES + 1)).ok).toBe(false);
  });

  it("keeps the submitted code's lines where they were, in its own file, with only the catalog granted", () => {
    const files = codeModeFiles("const a = 1;\nthrow new Error(String(a));");
    const code = files.find((file) => file.path === CODE_FILE)?.content ?? "";
    expect(code.split("\n")[1]).toBe("throw new Error(String(a));");
    expect(code.split("\n")[0]).toMatch(/^export default async function \(agents\) \{ const a = 1;$/);
    const manifest = JSON.parse(files.find((file) => file.path === "gadget.json")?.content ?? "{}");
    expect(manifest.grants).toEqual({ catalog: true });
  });
});
