import { validateJson } from "@gadgets/workshop-shared/json-schema";
import {
  check,
  GadgetManifestSchema,
  TestCaseSchema,
  TestFileSchema,
  type WireSchema,
} from "@gadgets/workshop-shared/schemas";
import type { JsonSchema } from "@valibot/to-json-schema";
import { describe, expect, it } from "vitest";
import { fileSchemas, manifestJsonSchema, testsJsonSchema } from "./file-schemas.ts";

const base = { name: "echo", entry: "index.ts" };

/** Manifests with mistakes a JSON Schema can see: both the editor's schema and the file's check refuse them. */
const REFUSED_MANIFESTS: [string, unknown][] = [
  ["an unknown grant", { ...base, grants: { kvv: true } }],
  ["kv as text", { ...base, grants: { kv: "yes" } }],
  ["a host with a scheme", { ...base, grants: { fetch: { hosts: ["https://api.example.com"] } } }],
  ["fetch without hosts", { ...base, grants: { fetch: {} } }],
  ["a lower-case secret name", { ...base, grants: { secrets: ["token"] } }],
  ["no entry", { name: "echo" }],
  ["a name as a number", { ...base, name: 7 }],
  ["a name too long", { ...base, name: "n".repeat(65) }],
  ["an unknown trigger", { ...base, triggers: { cron: "* * * * *" } }],
  ["an unknown response kind", { ...base, triggers: { http: { response: "xml" } } }],
  ["an unknown body kind", { ...base, triggers: { http: { body: "raw" } } }],
  ["not an object", ["echo"]],
];

/** Manifests both accept. */
const ACCEPTED_MANIFESTS: [string, unknown][] = [
  ["the least", base],
  [
    "every grant",
    {
      ...base,
      description: "Says hi.",
      exampleInput: { input: [1, "two", null] },
      grants: {
        fetch: { hosts: ["api.example.com", "127.0.0.1:8080"], headers: { "api.example.com": { A: "{{KEY}}" } } },
        kv: true,
        catalog: false,
        secrets: ["KEY"],
      },
    },
  ],
  ["schemas and triggers", { ...base, inputSchema: { type: "object" }, triggers: { http: { response: "full" } } }],
  ["a body given as text", { ...base, triggers: { http: { response: "full", body: "text" } } }],
  // The manifest's top level is open: keys it does not know are dropped, not refused.
  ["an extra top-level key", { ...base, $schema: "./whatever.json" }],
];

const TEST_CASE = { name: "greets", input: { input: "hi" }, expect: { equals: "Echo: hi", maxMs: 500 } };
const REFUSED_TESTS: [string, unknown][] = [
  ["no list", { tests: {} }],
  ["an unknown expectation", { tests: [{ ...TEST_CASE, expect: { equal: 1 } }] }],
  ["an unknown outcome", { tests: [{ ...TEST_CASE, expect: { outcome: "crashed" } }] }],
  ["maxMs as text", { tests: [{ ...TEST_CASE, expect: { maxMs: "500" } }] }],
  ["a case without a name", { tests: [{ input: 1 }] }],
  ["an unknown field of a case", { tests: [{ ...TEST_CASE, given: 1 }] }],
];
const ACCEPTED_TESTS: [string, unknown][] = [
  ["one case", { tests: [TEST_CASE] }],
  ["a refusal", { tests: [{ name: "refuses", input: 42, expect: { outcome: "user", noErrorLogs: true } }] }],
  ["none", { tests: [] }],
];

/** The tests file as the IDE checks it: the outer shape, then each case. */
const testsFileOk = (value: unknown): boolean =>
  check(TestFileSchema, value).ok &&
  (value as { tests: unknown[] }).tests.every((item) => check(TestCaseSchema as WireSchema, item).ok);

/** The editor's verdict, by the Workshop's own JSON Schema validator (its schema type is a plain record). */
const editorOk = (schema: JsonSchema, value: unknown) =>
  validateJson(Object.fromEntries(Object.entries(schema)), value).ok;

describe("manifestJsonSchema", () => {
  it.each(REFUSED_MANIFESTS)("refuses %s, as the manifest's check does", (_, value) => {
    expect(check(GadgetManifestSchema, value).ok).toBe(false);
    expect(editorOk(manifestJsonSchema(), value)).toBe(false);
  });

  it.each(ACCEPTED_MANIFESTS)("accepts %s, as the manifest's check does", (_, value) => {
    expect(check(GadgetManifestSchema, value).ok).toBe(true);
    expect(editorOk(manifestJsonSchema(), value)).toBe(true);
  });

  it("names every key the manifest knows, and its grants closed to others", () => {
    const schema = manifestJsonSchema();
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(
      Object.keys(GadgetManifestSchema.pipe[1].entries).sort(),
    );
    const grants = schema.properties?.grants as JsonSchema;
    expect(grants.additionalProperties).toBe(false);
    expect(grants.properties?.kv).toMatchObject({ errorMessage: '"grants.kv" must be true or false.' });
  });
});

describe("testsJsonSchema", () => {
  it.each(REFUSED_TESTS)("refuses %s, as the tests' check does", (_, value) => {
    expect(testsFileOk(value)).toBe(false);
    expect(editorOk(testsJsonSchema(), value)).toBe(false);
  });

  it.each(ACCEPTED_TESTS)("accepts %s, as the tests' check does", (_, value) => {
    expect(testsFileOk(value)).toBe(true);
    expect(editorOk(testsJsonSchema(), value)).toBe(true);
  });
});

describe("fileSchemas", () => {
  it("matches each file by name and fetches nothing", () => {
    const schemas = fileSchemas();
    expect(schemas.map((entry) => entry.fileMatch)).toEqual([["gadget.json"], ["gadget.tests.json"]]);
    expect(JSON.stringify(schemas)).not.toMatch(/https?:\/\//);
  });
});
