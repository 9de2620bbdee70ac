import { describe, expect, it } from "vitest";
import { builtinModule } from "./node-builtins.ts";

describe("Node built-ins", () => {
  it("answers both spellings with the node: specifier", () => {
    expect(builtinModule("node:buffer")).toEqual({ kind: "builtin", specifier: "node:buffer" });
    expect(builtinModule("events")).toEqual({ kind: "builtin", specifier: "node:events" });
    expect(builtinModule("fs/promises")).toEqual({ kind: "builtin", specifier: "node:fs/promises" });
    expect(builtinModule("node:sqlite")).toEqual({ kind: "builtin", specifier: "node:sqlite" });
  });

  it("names the ones workerd lacks, and leaves package names alone", () => {
    expect(builtinModule("node:sea")).toEqual({ kind: "missing", name: "node:sea" });
    expect(builtinModule("node:nope")).toEqual({ kind: "missing", name: "node:nope" });
    expect(builtinModule("zod")).toEqual({ kind: "not-builtin" });
    expect(builtinModule("sqlite")).toEqual({ kind: "not-builtin" });
  });
});
