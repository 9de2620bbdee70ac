import { describe, expect, it } from "vitest";
import { MAX_FETCH_HOSTS } from "../limits.ts";
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
    [{ shell: true }, 'Unknown grant "shell": the grants are "fetch", "kv" and "catalog".'],
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
});
