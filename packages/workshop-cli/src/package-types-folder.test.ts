import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageFolderOf, TYPES_MARKER, typesAreCurrent, writePackageTypes } from "./package-types-folder.ts";

const roots: string[] = [];
const folder = () => {
  const root = mkdtempSync(join(tmpdir(), "gadget-types-"));
  roots.push(root);
  return root;
};
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const files = (...paths: string[]) => ({ files: paths.map((path) => ({ path, content: `// ${path}` })) });

describe("packageFolderOf", () => {
  it("names the top-level package folder of a declaration path", () => {
    expect(packageFolderOf("node_modules/zod/index.d.ts")).toBe("zod");
    expect(packageFolderOf("node_modules/@types/x/index.d.ts")).toBe("@types/x");
    expect(packageFolderOf("node_modules/a/node_modules/b/index.d.ts")).toBe("a");
  });

  it("refuses paths that could leave node_modules", () => {
    expect(packageFolderOf("node_modules/../index.d.ts")).toBeUndefined();
    expect(packageFolderOf("node_modules/a/../../x.d.ts")).toBeUndefined();
    expect(packageFolderOf("/etc/x.d.ts")).toBeUndefined();
    expect(packageFolderOf("src/x.d.ts")).toBeUndefined();
    expect(packageFolderOf("node_modules/zod")).toBeUndefined();
    expect(packageFolderOf("node_modules/a\\..\\..\\x.d.ts")).toBeUndefined();
  });
});

describe("writePackageTypes", () => {
  it("writes declarations under node_modules and knows they are current for that lock", () => {
    const root = folder();
    const written = writePackageTypes(
      root,
      "lock-1",
      files("node_modules/zod/index.d.ts", "node_modules/zod/package.json"),
    );
    expect(written).toEqual(["zod"]);
    expect(readFileSync(join(root, "node_modules/zod/index.d.ts"), "utf8")).toBe("// node_modules/zod/index.d.ts");
    expect(typesAreCurrent(root, "lock-1")).toBe(true);
    expect(typesAreCurrent(root, "lock-2")).toBe(false);
  });

  it("replaces what it wrote before and leaves a package someone else installed alone", () => {
    const root = folder();
    mkdirSync(join(root, "node_modules/installed"), { recursive: true });
    writeFileSync(join(root, "node_modules/installed/index.js"), "real");
    writePackageTypes(root, "lock-1", files("node_modules/old/index.d.ts"));
    const written = writePackageTypes(
      root,
      "lock-2",
      files("node_modules/installed/index.d.ts", "node_modules/new/index.d.ts"),
    );
    expect(written).toEqual(["new"]);
    expect(existsSync(join(root, "node_modules/old"))).toBe(false);
    expect(existsSync(join(root, "node_modules/installed/index.d.ts"))).toBe(false);
    expect(readFileSync(join(root, "node_modules/installed/index.js"), "utf8")).toBe("real");
  });

  it("removes only package folders a marker names: one that came with the folder cannot name ../..", () => {
    const root = folder();
    const outside = join(root, "keep");
    mkdirSync(outside);
    writeFileSync(join(outside, "file.txt"), "mine");
    mkdirSync(join(root, "node_modules/zod"), { recursive: true });
    writeFileSync(
      join(root, "node_modules/.gadget-types.json"),
      JSON.stringify({ lock: "x", packages: ["../keep", "..", "@s/../../keep", "zod"] }),
    );
    writePackageTypes(root, undefined, { files: [] });
    expect(readFileSync(join(outside, "file.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(root, "node_modules/zod"))).toBe(false);
  });

  it("never removes or writes through a link: a scope or node_modules pointing outside the folder", () => {
    const root = folder();
    const outside = folder();
    mkdirSync(join(outside, "home"));
    writeFileSync(join(outside, "home/file.txt"), "mine");
    mkdirSync(join(root, "node_modules"));
    symlinkSync(outside, join(root, "node_modules/@x"));
    writeFileSync(join(root, TYPES_MARKER), JSON.stringify({ lock: "x", packages: ["@x/home"] }));
    writePackageTypes(root, "lock-1", files("node_modules/@x/new/index.d.ts", "node_modules/zod/index.d.ts"));
    expect(readFileSync(join(outside, "home/file.txt"), "utf8")).toBe("mine");
    expect(existsSync(join(outside, "new"))).toBe(false);
    expect(existsSync(join(root, "node_modules/zod/index.d.ts"))).toBe(true);

    const linked = folder();
    symlinkSync(outside, join(linked, "node_modules"));
    expect(() => writePackageTypes(linked, "lock-1", files("node_modules/zod/index.d.ts"))).toThrow(/symbolic link/);
    expect(existsSync(join(outside, "zod"))).toBe(false);
  });

  it("removes its declarations when the gadget has no lock any more", () => {
    const root = folder();
    writePackageTypes(root, "lock-1", files("node_modules/zod/index.d.ts"));
    expect(writePackageTypes(root, undefined, { files: [] })).toEqual([]);
    expect(existsSync(join(root, "node_modules/zod"))).toBe(false);
    expect(typesAreCurrent(root, "lock-1")).toBe(false);
  });
});
