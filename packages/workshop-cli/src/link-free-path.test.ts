import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ENV_TYPES_FILE, refreshEnvTypes } from "./env-types-file.ts";
import { linkFreePath } from "./link-free-path.ts";

const roots: string[] = [];
const folder = () => {
  const root = mkdtempSync(join(tmpdir(), "gadget-links-"));
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("linkFreePath", () => {
  it("says whether any part of a path below the folder, the last included, is a link", () => {
    const root = folder();
    const outside = folder();
    mkdirSync(join(root, "node_modules/@s"), { recursive: true });
    symlinkSync(outside, join(root, "node_modules/@x"));
    symlinkSync(join(outside, "file"), join(root, "gadget-env.d.ts"));
    expect(linkFreePath(root, "node_modules/@s/a/index.d.ts")).toBe(true);
    expect(linkFreePath(root, "node_modules/not-yet/index.d.ts")).toBe(true);
    expect(linkFreePath(root, "node_modules/@x/a/index.d.ts")).toBe(false);
    expect(linkFreePath(root, "gadget-env.d.ts")).toBe(false);
  });

  it("keeps the env types from being written through a link a cloned folder brought", () => {
    const root = folder();
    const outside = folder();
    writeFileSync(join(outside, "bashrc"), "mine");
    symlinkSync(join(outside, "bashrc"), join(root, ENV_TYPES_FILE));
    expect(refreshEnvTypes(root, {})).toBe(false);
    expect(readFileSync(join(outside, "bashrc"), "utf8")).toBe("mine");
  });
});
