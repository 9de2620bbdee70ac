import type { GadgetLock, LockedPackage } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import { locateFile, lockTypes } from "./lock-files.ts";

const entry = (name: string): LockedPackage => ({
  name,
  version: "1.0.0",
  resolved: `https://r.test/${name}.tgz`,
  integrity: `sha512-${"A".repeat(86)}==`,
});

const LOCK: GadgetLock = {
  lockfileVersion: 1,
  dependencies: { a: "1" },
  packages: {
    "node_modules/a": entry("a"),
    "node_modules/a/node_modules/b": entry("b"),
    "node_modules/@types/c": { ...entry("@types/c"), types: true },
  },
};

const FILES: Record<string, Record<string, string>> = {
  a: { "package.json": "{}", "index.d.ts": "export declare const a: 1;", "index.js": "x" },
  b: { "package.json": "{}", "lib/b.d.mts": "export {};".repeat(10) },
  "@types/c": { "package.json": "{}", "index.d.ts": "declare const c: 1;" },
};

const source = {
  files: async (locked: LockedPackage) => ({ files: new Map(Object.entries(FILES[locked.name] ?? {})) }),
};

describe("lockTypes", () => {
  it("sends package.json and declaration files of every package, never code", async () => {
    const { files } = await lockTypes(source, LOCK);
    expect(files.map((file) => file.path)).toEqual([
      "node_modules/@types/c/index.d.ts",
      "node_modules/@types/c/package.json",
      "node_modules/a/index.d.ts",
      "node_modules/a/package.json",
      "node_modules/a/node_modules/b/lib/b.d.mts",
      "node_modules/a/node_modules/b/package.json",
    ]);
  });

  it("holds MAX_PACKAGE_TYPES_BYTES: whole packages while they fit, the deepest left out", async () => {
    const all = (await lockTypes(source, LOCK)).files.reduce((sum, file) => sum + file.content.length, 0);
    expect((await lockTypes(source, LOCK, all)).files).toHaveLength(6);
    const cut = await lockTypes(source, LOCK, all - 1);
    expect(cut.files.map((file) => file.path).some((path) => path.includes("/b/"))).toBe(false);
  });
});

describe("locateFile", () => {
  it("finds the deepest package holding a path", () => {
    expect(locateFile(LOCK, "node_modules/a/node_modules/b/lib/b.d.mts")).toEqual({
      entry: entry("b"),
      inside: "lib/b.d.mts",
    });
    expect(locateFile(LOCK, "node_modules/a/index.js")?.inside).toBe("index.js");
    expect(locateFile(LOCK, "node_modules/zzz/index.js")).toBeUndefined();
  });
});
