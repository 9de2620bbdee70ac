import type { GadgetFile, GadgetManifest } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import { HARNESS_CONSOLE_MODULE, HARNESS_MODULE } from "../isolate/harness/contract.ts";
import { buildGadget, contentHash, mapPosition, moduleNameFor } from "./gadget-build.ts";
import { mapError } from "./stack-map.ts";

const manifest: GadgetManifest = { name: "g", entry: "index.ts", grants: {} };
const files = (entry: string, ...more: GadgetFile[]): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify(manifest) },
  { path: "index.ts", content: entry },
  ...more,
];

async function built(fileList: GadgetFile[]) {
  const result = await buildGadget(fileList, manifest, "ws");
  if (!result.ok) throw new Error(result.error.message);
  return result.build;
}

describe("buildGadget", () => {
  it("strips types and keeps line numbers", async () => {
    const build = await built(
      files(
        "interface A { x: number }\nconst a: A = { x: 1 };\nexport default { async run(): Promise<number> { return a.x; } };\n",
      ),
    );
    const code = build.gadget.modules["index.js"] ?? "";
    expect(code).not.toContain("interface");
    expect(code.split("\n")[2]).toContain("export default");
    expect(build.gadget.mainModule).toBe(HARNESS_MODULE);
  });

  it("rewrites relative imports to the gadget's module names", async () => {
    const build = await built(
      files(
        'import { a } from "./lib/a";\nimport { b } from "./lib/b.ts";\nexport { c } from "./c.js";\nexport default { async run() { return a + b; } };',
        { path: "lib/a.ts", content: 'import { c } from "../c";\nexport const a = c;' },
        { path: "lib/b.ts", content: "export const b = 2;" },
        { path: "c.js", content: "export const c = 1;" },
      ),
    );
    expect(build.gadget.modules["index.js"]).toContain('from "./lib/a.js"');
    expect(build.gadget.modules["index.js"]).toContain('from "./lib/b.js"');
    expect(build.gadget.modules["index.js"]).toContain('from "./c.js"');
    expect(build.gadget.modules["lib/a.js"]).toContain('from "../c.js"');
  });

  it("does not mistake text in strings for imports", async () => {
    const build = await built(
      files(`export default { async run() { console.log("hello from 'Bob'"); return 'import "x"'; } };`),
    );
    expect(build.gadget.modules["index.js"]).toContain("hello from 'Bob'");
  });

  it("rewrites multi-line import clauses and literal dynamic imports", async () => {
    const build = await built(
      files(
        'import {\n  a,\n  b,\n} from "./lib";\nexport default { async run() { const m = await import("./lib"); return a + b + m.a; } };',
        {
          path: "lib.ts",
          content: "export const a = 1;\nexport const b = 2;",
        },
      ),
    );
    expect(build.gadget.modules["index.js"]).toContain('} from "./lib.js"');
    expect(build.gadget.modules["index.js"]).toContain('import("./lib.js")');
  });

  it("refuses bare imports, missing files and module name clashes", async () => {
    const bare = await buildGadget(files('import x from "lodash";\nexport default { x };'), manifest, "ws");
    expect(bare.ok === false && bare.error.message).toContain('Cannot import "lodash"');
    const missing = await buildGadget(files('\nimport x from "./nope";\nexport default { x };'), manifest, "ws");
    expect(missing.ok === false && missing.error.frames[0]).toMatchObject({ file: "index.ts", line: 2 });
    const clash = await buildGadget(files("export default {};", { path: "index.js", content: "" }), manifest, "ws");
    expect(clash.ok === false && clash.error.message).toContain('both load as module "index.js"');
  });

  it("reports syntax errors with file, line and column", async () => {
    const result = await buildGadget(files("export default {\n  run() {\n    let = ;\n  }\n};"), manifest, "ws");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.name).toBe("SyntaxError");
    expect(result.error.frames[0]).toMatchObject({ file: "index.ts", line: 3 });
  });

  it("caches by content: equal files give the same build and hash", async () => {
    const a = await built(files("export default { async run() { return 1; } };"));
    const b = await built(files("export default { async run() { return 1; } };"));
    const c = await built(files("export default { async run() { return 2; } };"));
    expect(b).toBe(a);
    expect(c.gadget.hash).not.toBe(a.gadget.hash);
  });

  it("hashes independently of file order", async () => {
    const list = files("x", { path: "a.ts", content: "y" });
    expect(await contentHash(list)).toBe(await contentHash([...list].reverse()));
  });
});

describe("stack mapping", () => {
  it("maps isolate frames to gadget files and hides runtime frames from the text", async () => {
    const build = await built(
      files("type T = number;\nexport default {\n  async run() {\n    throw new Error('x');\n  },\n};", {
        path: "util.ts",
        content: "export const u = 1;",
      }),
    );
    const mapped = mapError(
      {
        name: "Error",
        message: "x",
        stack:
          "Error: x\n    at Object.run (worker/index.js:4:11)\n    at async GadgetHarness.run (__workshop_harness.js:90:5)\n    at util.js:1:1",
      },
      build,
    );
    expect(mapped.frames).toEqual([
      { fn: "Object.run", file: "index.ts", line: 4, column: 11 },
      { fn: "async GadgetHarness.run", file: "<runtime>", line: 90, column: 5 },
      { fn: "", file: "util.ts", line: 1, column: 1 },
    ]);
    expect(mapped.stack).toBe("Error: x\n    at Object.run (index.ts:4:11)\n    at util.ts:1:1");
  });

  it("maps a frame to the longest matching module, not a shorter namesake", async () => {
    const build = await built(files("export default {};", { path: "lib/index.ts", content: "export const x = 1;" }));
    const mapped = mapError(
      { name: "Error", message: "x", stack: "Error: x\n    at f (worker/lib/index.js:1:5)" },
      build,
    );
    expect(mapped.frames[0]).toMatchObject({ file: "lib/index.ts" });
  });

  it("maps positions through the source map", async () => {
    const build = await built(files("const x: number = 1;\nexport default { async run() { return x; } };"));
    expect(mapPosition(build, moduleNameFor("index.ts"), 2, 1)).toMatchObject({ path: "index.ts", line: 2 });
    expect(mapPosition(build, "unknown.js", 1, 1)).toBeUndefined();
  });

  it("scans gadget-made import-like text in one pass (the old pattern was quadratic on it)", async () => {
    // 250 KB of lines that start like a statement but never reach a quote: each was scanned to the end.
    const filler = "export\n".repeat(35_000);
    const build = await built(
      files('import { a } from "./a";\nexport default { async run() { return a; } };', {
        path: "a.js",
        content: `${filler}export const a = 1;`,
      }),
    );
    expect(build.gadget.modules["index.js"]).toContain('from "./a.js"');
  });

  it("reuses a build only within the workspace that made it", async () => {
    const same = files("export default { async run() { return 'cache-probe'; } };");
    const first = await buildGadget(same, manifest, "workspace-a");
    const again = await buildGadget(same, manifest, "workspace-a");
    const other = await buildGadget(same, manifest, "workspace-b");
    expect([first, again, other].map((result) => result.ok && result.cached)).toEqual([false, true, false]);
    // Byte-identical files still share a content hash, the code part of each workspace's isolate key.
    expect(other.ok && first.ok && other.build.gadget.hash === first.build.gadget.hash).toBe(true);
  });

  it("refuses a file that would load as the harness's console module", async () => {
    const result = await buildGadget(
      files("export default {};", { path: HARNESS_CONSOLE_MODULE, content: "" }),
      manifest,
      "ws",
    );
    expect(result.ok).toBe(false);
  });
});
