import { describe, expect, it } from "vitest";
import { MAX_FETCH_HOSTS, MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH } from "../limits.ts";
import { check } from "./check.ts";
import { GadgetFileSchema, GadgetFilesSchema, GadgetGrantsSchema, GadgetManifestSchema, HostSchema } from "./gadget.ts";

const manifestFile = { path: "gadget.json", content: '{"name":"g","entry":"index.ts"}' };

describe("GadgetFileSchema", () => {
  it("keeps path and content, and drops anything else", () => {
    expect(check(GadgetFileSchema, { path: "index.ts", content: "x", extra: 1 })).toEqual({
      ok: true,
      value: { path: "index.ts", content: "x" },
    });
  });

  it.each([
    [null, "Each file must be an object { path, content }."],
    [{ content: "x" }, "A file path must be a non-empty string."],
    [{ path: "index.ts" }, 'File "index.ts" has no text content.'],
    [{ path: "index.ts", content: 5 }, 'File "index.ts" has no text content.'],
    [
      { path: "run.exe", content: "" },
      'File "run.exe" has an unsupported type; use one of .ts .js .mjs .json .md .txt.',
    ],
  ])("refuses %j: %s", (file, message) => {
    expect(check(GadgetFileSchema, file)).toEqual({ ok: false, error: message });
  });
});

describe("GadgetFilesSchema", () => {
  it("refuses a path that differs from another only in case", () => {
    const files = [manifestFile, { path: "index.ts", content: "" }, { path: "Index.ts", content: "" }];
    expect(check(GadgetFilesSchema, files)).toEqual({ ok: false, error: 'File "Index.ts" appears twice.' });
  });

  it("takes only gadget.json, exactly so spelt, for the manifest", () => {
    const files = [
      { ...manifestFile, path: "Gadget.json" },
      { path: "index.ts", content: "" },
    ];
    expect(check(GadgetFilesSchema, files)).toMatchObject({
      ok: false,
      error: expect.stringContaining('manifest file "gadget.json"'),
    });
  });

  it("refuses what is not a list", () => {
    expect(check(GadgetFilesSchema, { 0: manifestFile })).toEqual({
      ok: false,
      error: "files must be an array of { path, content }.",
    });
  });
});

describe("HostSchema", () => {
  it("quotes the host it refuses, or says what it got instead", () => {
    expect(check(HostSchema, "*.x.com")).toEqual({
      ok: false,
      error:
        'Fetch grant host "*.x.com" is not valid: write a host name like "api.example.com" or "127.0.0.1:8080" (no scheme, path or wildcard).',
    });
    const number = check(HostSchema, 5);
    expect(number.ok === false && number.error).toMatch(/^Fetch grant host 5 is not valid/);
  });
});

describe("GadgetGrantsSchema", () => {
  it("accepts each grant and no grant", () => {
    const grants = { fetch: { hosts: ["api.example.com"] }, kv: true, catalog: false };
    expect(check(GadgetGrantsSchema, grants)).toEqual({ ok: true, value: grants });
    expect(check(GadgetGrantsSchema, {})).toEqual({ ok: true, value: {} });
  });

  it(`allows ${MAX_FETCH_HOSTS} hosts and refuses one more`, () => {
    const hosts = (n: number) => ({ fetch: { hosts: Array.from({ length: n }, (_, i) => `h${i}.example.com`) } });
    expect(check(GadgetGrantsSchema, hosts(MAX_FETCH_HOSTS)).ok).toBe(true);
    expect(check(GadgetGrantsSchema, hosts(MAX_FETCH_HOSTS + 1))).toEqual({
      ok: false,
      error: `"grants.fetch.hosts" lists ${MAX_FETCH_HOSTS + 1} hosts; the limit is ${MAX_FETCH_HOSTS}.`,
    });
  });

  it.each([
    [[], '"grants" must be an object like { "fetch": { "hosts": [] }, "kv": true }.'],
    [{ shell: true }, 'Unknown grant "shell": the grants are "fetch", "kv", "catalog" and "secrets".'],
    [{ fetch: null }, '"grants.fetch" must be { "hosts": ["api.example.com"] }.'],
    [{ fetch: {} }, '"grants.fetch" must be { "hosts": ["api.example.com"] }.'],
    [{ kv: "yes" }, '"grants.kv" must be true or false.'],
    [{ catalog: 1 }, '"grants.catalog" must be true or false.'],
  ])("refuses %j: %s", (grants, message) => {
    expect(check(GadgetGrantsSchema, grants)).toEqual({ ok: false, error: message });
  });
});

describe("GadgetManifestSchema", () => {
  it("trims the name and gives grants a default of none", () => {
    expect(check(GadgetManifestSchema, { name: " echo ", entry: "index.ts", unknown: 1 })).toEqual({
      ok: true,
      value: { name: "echo", entry: "index.ts", grants: {} },
    });
  });

  it.each([
    ["[]", 'the file must hold an object like { "name": "echo", "entry": "index.ts" }.'],
    ['{"entry":"index.ts"}', '"name" must be a non-empty string of at most 64 characters.'],
    ['{"name":"  ","entry":"index.ts"}', '"name" must be a non-empty string of at most 64 characters.'],
    ['{"name":"g","entry":"README.md"}', `"entry" must name the gadget's entry module, like "index.ts".`],
    ['{"name":"g","entry":"index.ts","description":7}', '"description" must be a string of at most 1000 characters.'],
  ])("refuses %s: %s", (json, message) => {
    expect(check(GadgetManifestSchema, JSON.parse(json))).toEqual({ ok: false, error: message });
  });

  describe("inputSchema and outputSchema", () => {
    const manifest = (fields: Record<string, unknown>) => ({ name: "weather", entry: "index.ts", ...fields });
    const input = { type: "object", required: ["city"], properties: { city: { type: "string" } } };

    it("keeps the schemas a manifest declares, as they are", () => {
      const output = { type: "object", properties: { tempC: { type: "number" } } };
      const checked = check(GadgetManifestSchema, manifest({ inputSchema: input, outputSchema: output }));
      expect(checked).toEqual({
        ok: true,
        value: { ...manifest({}), grants: {}, inputSchema: input, outputSchema: output },
      });
      expect(checked.ok && checked.value.inputSchema).toBe(input);
    });

    it.each([
      [
        { inputSchema: { type: "strng" } },
        '"inputSchema" is not a valid JSON Schema: inputSchema.type: expected one of "array", "boolean", "integer", "null", "number", "object", "string".',
      ],
      [
        { outputSchema: [] },
        '"outputSchema" is not a valid JSON Schema: it must be an object like { "type": "object", "properties": { … } }, not an array.',
      ],
      [
        { inputSchema: { $ref: "https://example.com/s.json" } },
        '"inputSchema" is not a valid JSON Schema: the $ref "https://example.com/s.json" at # is not local; only refs inside the schema ("#/$defs/…") are followed.',
      ],
    ])("refuses %j", (fields, message) => {
      expect(check(GadgetManifestSchema, manifest(fields))).toEqual({ ok: false, error: message });
    });

    it(`allows a schema of ${MAX_SCHEMA_BYTES} bytes and refuses one more`, () => {
      const sized = (bytes: number) => {
        const schema = { description: "" };
        schema.description = "x".repeat(bytes - JSON.stringify(schema).length);
        return schema;
      };
      expect(check(GadgetManifestSchema, manifest({ inputSchema: sized(MAX_SCHEMA_BYTES) })).ok).toBe(true);
      expect(check(GadgetManifestSchema, manifest({ outputSchema: sized(MAX_SCHEMA_BYTES + 1) }))).toEqual({
        ok: false,
        error: `"outputSchema" is not a valid JSON Schema: it is ${MAX_SCHEMA_BYTES + 1} bytes as JSON; the limit is ${MAX_SCHEMA_BYTES} bytes.`,
      });
    });

    it(`allows a schema nested ${MAX_SCHEMA_DEPTH} levels deep and refuses one more`, () => {
      // The innermost schema sits inside `levels` others.
      const nested = (levels: number) => {
        let schema: Record<string, unknown> = { type: "string" };
        for (let i = 0; i < levels; i++) schema = { not: schema };
        return schema;
      };
      expect(check(GadgetManifestSchema, manifest({ inputSchema: nested(MAX_SCHEMA_DEPTH) })).ok).toBe(true);
      expect(check(GadgetManifestSchema, manifest({ inputSchema: nested(MAX_SCHEMA_DEPTH + 1) }))).toEqual({
        ok: false,
        error: `"inputSchema" is not a valid JSON Schema: it nests more than ${MAX_SCHEMA_DEPTH} levels deep.`,
      });
    });
  });
});

describe("GadgetManifestSchema names", () => {
  it.each(["demo\u202Egnp.exe", "bell\u0007", "nul\u0000", "line\nbreak", "\u2066isolated"])(
    "refuses a name with a control or bidi character: %j",
    (name) => {
      expect(check(GadgetManifestSchema, { name, entry: "index.ts" })).toMatchObject({
        ok: false,
        error: expect.stringContaining('"name" must not hold control characters or bidi marks'),
      });
    },
  );
  it.each(["echo", "héllo wörld", "שלום", "日本語 🙂", "demo$(touch x)"])("takes the name %j", (name) => {
    expect(check(GadgetManifestSchema, { name, entry: "index.ts" }).ok).toBe(true);
  });
});
