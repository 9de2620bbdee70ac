import { describe, expect, it } from "vitest";
import type { GadgetFile } from "./api.ts";
import {
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_GADGET_BYTES,
  MAX_PATH_DEPTH,
  MAX_PATH_LENGTH,
  MAX_PAYLOAD_BYTES,
  MAX_RUN_TIMEOUT_MS,
} from "./limits.ts";
import { checkFiles, checkHost, checkId, checkManifest, checkPath, checkPayload, checkTimeoutMs } from "./validate.ts";

const manifest = (extra: Record<string, unknown> = {}): GadgetFile => ({
  path: "gadget.json",
  content: JSON.stringify({ name: "g", entry: "index.ts", ...extra }),
});
const entry: GadgetFile = { path: "index.ts", content: "export default { async run() {} };" };

describe("checkPayload", () => {
  it("accepts JSON data up to MAX_PAYLOAD_BYTES and refuses one byte more", () => {
    const fill = (bytes: number) => ({ s: "x".repeat(bytes - JSON.stringify({ s: "" }).length) });
    expect(checkPayload(fill(MAX_PAYLOAD_BYTES)).ok).toBe(true);
    const over = checkPayload(fill(MAX_PAYLOAD_BYTES + 1));
    expect(over.ok === false && over.error).toContain(`is ${MAX_PAYLOAD_BYTES + 1} bytes`);
  });

  it("names the first value JSON cannot carry", () => {
    const result = checkPayload({ a: [1, { b: undefined }] });
    expect(result.ok === false && result.error).toContain("payload.a[1].b is undefined");
    expect(checkPayload({ n: Number.NaN }).ok).toBe(false);
    expect(checkPayload({ d: new Date() }).ok).toBe(false);
    expect(checkPayload(null).ok).toBe(true);
  });
});

describe("checkPath", () => {
  it.each(["index.ts", "lib/util.ts", "README.md", "data/x.json", "a_b-c.mjs"])("accepts %s", (path) => {
    expect(checkPath(path).ok).toBe(true);
  });
  it.each(["../x.ts", "/abs.ts", "a/../b.ts", ".hidden.ts", "a//b.ts", "x.exe", "", "a b.ts"])("refuses %j", (path) => {
    expect(checkPath(path).ok).toBe(false);
  });
  it("allows MAX_PATH_DEPTH folders and refuses one more", () => {
    const nested = (folders: number) => `${"d/".repeat(folders)}x.ts`;
    expect(checkPath(nested(MAX_PATH_DEPTH)).ok).toBe(true);
    expect(checkPath(nested(MAX_PATH_DEPTH + 1)).ok).toBe(false);
  });

  it("allows MAX_PATH_LENGTH characters and refuses one more", () => {
    expect(checkPath(`${"a".repeat(MAX_PATH_LENGTH - 3)}.ts`).ok).toBe(true);
    expect(checkPath(`${"a".repeat(MAX_PATH_LENGTH - 2)}.ts`).ok).toBe(false);
  });
});

describe("checkFiles", () => {
  it("needs a manifest and refuses duplicates", () => {
    expect(checkFiles([entry]).ok).toBe(false);
    expect(checkFiles([manifest(), entry, entry]).ok).toBe(false);
    expect(checkFiles([manifest(), entry]).ok).toBe(true);
  });

  it("allows MAX_FILES files and refuses one more", () => {
    const files = (n: number) => [
      manifest(),
      ...Array.from({ length: n - 1 }, (_, i) => ({ path: `f${i}.ts`, content: "" })),
    ];
    expect(checkFiles(files(MAX_FILES)).ok).toBe(true);
    expect(checkFiles(files(MAX_FILES + 1)).ok).toBe(false);
  });

  it("allows a file of MAX_FILE_BYTES and refuses one byte more", () => {
    expect(checkFiles([manifest(), { path: "index.ts", content: "x".repeat(MAX_FILE_BYTES) }]).ok).toBe(true);
    const over = checkFiles([manifest(), { path: "index.ts", content: "x".repeat(MAX_FILE_BYTES + 1) }]);
    expect(over.ok === false && over.error).toContain(`${MAX_FILE_BYTES + 1} bytes`);
  });

  it("refuses files that add up to more than MAX_GADGET_BYTES", () => {
    const chunk = (i: number, size: number) => ({ path: `f${i}.ts`, content: "x".repeat(size) });
    const count = Math.ceil(MAX_GADGET_BYTES / MAX_FILE_BYTES);
    const man = manifest();
    const exact = [man, ...Array.from({ length: count }, (_, i) => chunk(i, MAX_FILE_BYTES))];
    exact[exact.length - 1] = chunk(count - 1, MAX_FILE_BYTES - man.content.length);
    expect(checkFiles(exact).ok).toBe(true);
    exact[exact.length - 1] = chunk(count - 1, MAX_FILE_BYTES - man.content.length + 1);
    expect(checkFiles(exact).ok).toBe(false);
  });
});

describe("checkManifest", () => {
  it("parses a manifest with grants", () => {
    const result = checkManifest([
      manifest({ description: "d", grants: { fetch: { hosts: ["api.example.com"] }, kv: true } }),
      entry,
    ]);
    expect(result).toEqual({
      ok: true,
      value: {
        name: "g",
        entry: "index.ts",
        description: "d",
        grants: { fetch: { hosts: ["api.example.com"] }, kv: true },
      },
    });
  });

  it.each([
    [{ content: "{" }, "not valid JSON"],
    [{ content: "[]" }, "must hold an object"],
    [{ content: JSON.stringify({ entry: "index.ts" }) }, '"name"'],
    [{ content: JSON.stringify({ name: "g", entry: "missing.ts" }) }, "is not one of the gadget's files"],
    [{ content: JSON.stringify({ name: "g", entry: "index.ts", grants: { shell: true } }) }, 'Unknown grant "shell"'],
    [{ content: JSON.stringify({ name: "g", entry: "index.ts", grants: { fetch: { hosts: ["*"] } } }) }, "not valid"],
  ])("refuses %j with a message containing %j", (override, message) => {
    const result = checkManifest([{ path: "gadget.json", ...override }, entry]);
    expect(result.ok === false && result.error).toContain(message);
  });
});

describe("checkTimeoutMs", () => {
  it("accepts 1 to MAX_RUN_TIMEOUT_MS and refuses one more, or anything not a whole number", () => {
    expect(checkTimeoutMs(1, "t").ok).toBe(true);
    expect(checkTimeoutMs(MAX_RUN_TIMEOUT_MS, "t").ok).toBe(true);
    const over = checkTimeoutMs(MAX_RUN_TIMEOUT_MS + 1, "runTimeoutMs");
    expect(over.ok === false && over.error).toBe(
      `runTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_RUN_TIMEOUT_MS} (the server's maximum).`,
    );
    for (const bad of [0, 1.5, "100", null]) expect(checkTimeoutMs(bad, "t").ok).toBe(false);
  });
});

describe("checkHost and checkId", () => {
  it("accepts hosts with optional ports and refuses schemes, paths and wildcards", () => {
    expect(checkHost("api.example.com").ok).toBe(true);
    expect(checkHost("127.0.0.1:8080").ok).toBe(true);
    for (const bad of ["https://x.com", "x.com/path", "*.x.com", "X.COM", ""]) expect(checkHost(bad).ok).toBe(false);
  });

  it("accepts our ids and refuses anything else", () => {
    expect(checkId("AbC_-123", "id").ok).toBe(true);
    for (const bad of ["", "a b", "x".repeat(65), 7, null, "a/b"]) expect(checkId(bad, "id").ok).toBe(false);
  });
});
