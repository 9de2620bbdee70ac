import ts from "typescript";
import { describe, expect, it } from "vitest";
import { catalogDeclaration, fitInBudget, type TypedAgent } from "./agent-types.ts";
import { MAX_CATALOG_TYPES_CHARS } from "./limits.ts";

const QUOTES: TypedAgent = {
  name: "quotes",
  description: "A price */ for a symbol",
  inputSchema: { type: "object", properties: { symbol: { type: "string" } }, required: ["symbol"] },
  outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
};
const PLAIN: TypedAgent = { name: "my-agent", description: "" };

const host = ts.createCompilerHost({ strict: true, noEmit: true });
const original = host.getSourceFile;
// The lib files are read and parsed once for all the checks below.
const libs = new Map<string, ts.SourceFile | undefined>();
let source = "";
host.getSourceFile = (name, language) => {
  if (name === "check.ts") return ts.createSourceFile(name, source, language);
  if (!libs.has(name)) libs.set(name, original(name, language));
  return libs.get(name);
};

/** Type-checks gadget code against the declaration, as the editor's TypeScript does. */
function diagnostics(agents: TypedAgent[], code: string): string[] {
  source = `${catalogDeclaration(agents)}\ndeclare const catalog: GadgetCatalog;\nexport async function check() {\n${code}\n}\n`;
  const program = ts.createProgram(
    ["check.ts"],
    { strict: true, noEmit: true, types: [], lib: ["lib.es2022.d.ts"] },
    host,
  );
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === "check.ts")
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

// The first check parses TypeScript's lib files.
describe("catalogDeclaration", { timeout: 30_000 }, () => {
  it("types a published agent's run from its schemas", () => {
    expect(
      diagnostics([QUOTES], 'const { price } = await catalog.get("quotes").run({ symbol: "X" }); price.toFixed(2);'),
    ).toEqual([]);
    expect(diagnostics([QUOTES], 'await catalog.get("quotes").run({ symbol: 42 });').join("\n")).toMatch(
      /Type 'number' is not assignable to type 'string'/,
    );
    expect(diagnostics([QUOTES], 'const s: string = await catalog.get("quotes").run({ symbol: "X" });')).toHaveLength(
      1,
    );
  });

  it("types an agent without schemas, an id and a pinned version as JSON in and out", () => {
    const calls = [
      'const a = await catalog.get("my-agent").run({ any: [1, "json"] });',
      'const b = await catalog.get("quotes@1").run({ symbol: 42 });',
      'const c = await catalog.get("ag_0123").run(null);',
      "const all: JsonValue[] = [a, b, c];",
    ].join("\n");
    expect(diagnostics([QUOTES, PLAIN], calls)).toEqual([]);
    expect(diagnostics([PLAIN], 'await catalog.get("my-agent").run(() => 1);')).toHaveLength(1);
  });

  it("lists the published names as the keys get() completes, quoted when they are not identifiers", () => {
    const text = catalogDeclaration([QUOTES, PLAIN]);
    expect(text).toContain('  "my-agent": GadgetAgent;');
    expect(text).toMatch(/\/\*\* A price \* \/ for a symbol \*\/\n {2}quotes: GadgetAgent<\{/);
    expect(text).toContain("get<Name extends keyof GadgetAgents>(agent: Name): GadgetAgents[Name];");
    expect(diagnostics([], 'await catalog.get("anything").run(1);')).toEqual([]);
  });

  it("stays within MAX_CATALOG_TYPES_CHARS, naming the agents it typed loosely", () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      ...QUOTES,
      name: `agent${String(i).padStart(4, "0")}`,
      description: "x".repeat(40),
    }));
    const text = catalogDeclaration(many);
    expect(text.length).toBeLessThan(MAX_CATALOG_TYPES_CHARS + 4096);
    expect(text).toMatch(/\/\/ \d+ more agents, typed loosely: agent\d+/);
    expect(diagnostics(many, 'await catalog.get("agent4999").run({ symbol: 42 });')).toEqual([]);
  });
});

describe("fitInBudget", () => {
  const agents = ["b", "a", "c"].map((name) => ({ name, description: "" }));
  const text = (agent: TypedAgent) => agent.name.repeat(9);

  it("keeps agents in name order while their lines fit the budget exactly", () => {
    expect(fitInBudget(agents, text, 30)).toEqual({ fitted: ["a".repeat(9), "b".repeat(9), "c".repeat(9)], left: [] });
  });

  it("leaves the agent one character past the budget, and every one after it", () => {
    const { fitted, left } = fitInBudget(agents, text, 29);
    expect(fitted).toEqual(["a".repeat(9), "b".repeat(9)]);
    expect(left.map((agent) => agent.name)).toEqual(["c"]);
    expect(fitInBudget(agents, text, 19).left.map((agent) => agent.name)).toEqual(["b", "c"]);
  });
});
