import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ENV_TYPES_FILE, envTypesText, refreshEnvTypes } from "./env-types-file.ts";

const roots: string[] = [];
const folder = () => {
  const root = mkdtempSync(join(tmpdir(), "gadget-env-types-"));
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("refreshEnvTypes", () => {
  it("writes the file a folder came without, as init would have", () => {
    const root = folder();
    expect(refreshEnvTypes(root, { kv: true })).toBe(true);
    expect(readFileSync(join(root, ENV_TYPES_FILE), "utf8")).toBe(envTypesText({ kv: true }));
  });

  it("writes it again only when the grants change", () => {
    const root = folder();
    writeFileSync(join(root, ENV_TYPES_FILE), envTypesText({}));
    expect(refreshEnvTypes(root, {})).toBe(false);
    expect(refreshEnvTypes(root, { kv: true })).toBe(true);
    expect(readFileSync(join(root, ENV_TYPES_FILE), "utf8")).toBe(envTypesText({ kv: true }));
  });

  it("writes nothing through a link that leads nowhere yet", () => {
    const root = folder();
    const outside = folder();
    symlinkSync(join(outside, "bashrc"), join(root, ENV_TYPES_FILE));
    expect(refreshEnvTypes(root, {})).toBe(false);
    expect(existsSync(join(outside, "bashrc"))).toBe(false);
  });

  it("leaves a path it cannot write as it is, without failing the run", () => {
    const root = folder();
    mkdirSync(join(root, ENV_TYPES_FILE));
    expect(refreshEnvTypes(root, { kv: true })).toBe(false);
  });
});
