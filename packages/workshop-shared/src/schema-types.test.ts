import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "./api.ts";
import { schemaToTypeScript } from "./schema-types.ts";

/** Type-checks a declaration that uses the type, as Code Mode's `agents` declaration will. */
function diagnostics(type: string): string[] {
  const source = `declare const value: ${type};\nexport {};\n`;
  const host = ts.createCompilerHost({ strict: true, noEmit: true });
  const original = host.getSourceFile;
  host.getSourceFile = (name, language) =>
    name === "check.ts" ? ts.createSourceFile(name, source, language) : original(name, language);
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

describe("schemaToTypeScript", () => {
  it.each<[JsonSchema, string]>([
    [{ type: "string" }, "string"],
    [{ type: "integer" }, "number"],
    [{ type: "number" }, "number"],
    [{ type: "boolean" }, "boolean"],
    [{ type: "null" }, "null"],
    [{ type: ["string", "null"] }, "string | null"],
    [{ enum: ["c", "f"] }, '"c" | "f"'],
    [{ enum: [1, true, null] }, "1 | true | null"],
    [{ enum: [{ a: 1 }] }, "unknown"],
    [{ const: "a" }, '"a"'],
    [{}, "unknown"],
    [{ not: { type: "string" } }, "unknown"],
    [{ type: "array", items: { type: "string" } }, "string[]"],
    [{ type: "array", items: { type: ["string", "number"] } }, "(string | number)[]"],
    [{ type: "array" }, "unknown[]"],
    [
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1, items: false },
      "[string, number?]",
    ],
    [{ type: "array", prefixItems: [{ type: "string" }], minItems: 1 }, "[string, ...unknown[]]"],
    [{ anyOf: [{ type: "string" }, { type: "number" }] }, "string | number"],
    [{ oneOf: [{ const: 1 }, { const: 2 }] }, "1 | 2"],
    [
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: {} } },
        ],
      },
      "{ a?: string } & { b?: unknown }",
    ],
    [{ type: "object" }, "{ [key: string]: unknown }"],
    [{ type: "object", additionalProperties: false }, "{}"],
    [{ type: "object", additionalProperties: { type: "number" } }, "{ [key: string]: number }"],
    [
      { type: "object", required: ["city"], properties: { city: { type: "string" }, days: { type: "integer" } } },
      "{ city: string; days?: number }",
    ],
    [
      { type: "object", properties: { "two words": { type: "string" }, ok: { type: "boolean" } }, required: ["ok"] },
      '{ "two words"?: string; ok: boolean }',
    ],
    [{ type: "object", required: ["id"] }, "{ id: unknown }"],
    [
      {
        type: "object",
        required: ["a"],
        properties: { a: { type: "string" }, b: { type: "boolean" } },
        additionalProperties: { type: "number" },
      },
      "{\n  a: string;\n  b?: boolean;\n  [key: string]: number | string | boolean | undefined;\n}",
    ],
    [{ $defs: { city: { type: "string" } }, $ref: "#/$defs/city" }, "string"],
    [{ definitions: { n: { type: "number" } }, type: "array", items: { $ref: "#/definitions/n" } }, "number[]"],
    [{ $ref: "https://example.com/remote.json" }, "unknown"],
    [{ type: "string", anyOf: [{ const: "a" }, { const: "b" }] }, 'string & ("a" | "b")'],
  ])("%j is %s", (schema, type) => {
    expect(schemaToTypeScript(schema)).toBe(type);
  });

  it("writes descriptions as JSDoc comments, over several lines when they have several", () => {
    const schema: JsonSchema = {
      type: "object",
      required: ["city"],
      properties: {
        city: { type: "string", description: "The city, like Paris" },
        unit: { enum: ["c", "f"], description: "Celsius or Fahrenheit.\nDefaults to c. Not */ a comment end" },
      },
    };
    const text = schemaToTypeScript(schema, { indent: "    " });
    expect(text).toBe(
      [
        "{",
        "      /** The city, like Paris */",
        "      city: string;",
        "      /**",
        "       * Celsius or Fahrenheit.",
        "       * Defaults to c. Not *\\/ a comment end",
        "       */",
        '      unit?: "c" | "f";',
        "    }",
      ].join("\n"),
    );
    expect(diagnostics(text)).toEqual([]);
  });

  it("inlines recursive refs a few levels deep, then says unknown", () => {
    const tree: JsonSchema = {
      type: "object",
      required: ["name"],
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
    };
    const text = schemaToTypeScript(tree);
    expect(text.match(/name: string/g)).toHaveLength(4);
    expect(text).toContain("children?: unknown[]");
    expect(diagnostics(text)).toEqual([]);
  });

  it("keeps to maxLength by cutting the deepest parts first", () => {
    const properties: Record<string, JsonSchema> = {};
    for (let i = 0; i < 40; i++)
      properties[`field${i}`] = { type: "object", properties: { inner: { type: "array", items: { type: "string" } } } };
    const schema: JsonSchema = { type: "object", properties };
    const full = schemaToTypeScript(schema, { maxLength: 100_000 });
    const cut = schemaToTypeScript(schema, { maxLength: 1200 });
    expect(full).toContain("field39?: { inner?: string[] };");
    expect(cut.length).toBeLessThanOrEqual(1200);
    expect(cut).toContain("field39?: unknown;");
    expect(schemaToTypeScript(schema, { maxLength: 10 })).toBe("unknown");
    expect(diagnostics(cut)).toEqual([]);
  });

  it("bounds the work of refs inlined many times over", () => {
    const defs: Record<string, JsonSchema> = { l0: { type: "string" } };
    for (let i = 1; i < 12; i++) {
      const ref = { $ref: `#/$defs/l${i - 1}` };
      defs[`l${i}`] = { type: "object", properties: { a: ref, b: ref, c: ref, d: ref } };
    }
    const text = schemaToTypeScript({ $defs: defs, $ref: "#/$defs/l11" }, { maxLength: 1_000_000 });
    expect(text.length).toBeLessThan(1_000_000);
    expect(diagnostics(text)).toEqual([]);
  });

  it("writes types a declaration accepts", () => {
    const schema: JsonSchema = {
      type: "object",
      required: ["a"],
      properties: {
        a: {
          anyOf: [{ type: "string" }, { type: "array", prefixItems: [{ type: "number" }], items: { type: "boolean" } }],
        },
        b: { type: "object", additionalProperties: { type: ["integer", "null"] }, properties: { x: { const: 1 } } },
        "c-d": { allOf: [{ type: "object", properties: { e: { type: "string" } } }, { required: ["e"] }] },
      },
    };
    expect(diagnostics(schemaToTypeScript(schema))).toEqual([]);
  });
});
