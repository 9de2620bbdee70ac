import type { GadgetFile, GadgetLock, GadgetManifest } from "@gadgets/workshop-shared/api";
import { MAX_TREE_UNPACKED_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { BUILD_CACHE_BYTES } from "../isolate-caches.ts";
import type { PackageSource } from "../packages/package-source.ts";
import { buildGadget, contentHash, mapPosition } from "./gadget-build.ts";
import { mapError } from "./stack-map.ts";
import { gadgetWith, type MemoryPackage, memoryTree } from "./testing/memory-packages.ts";

let workspace = 0;

async function build(
  source: string,
  packages: Record<string, MemoryPackage>,
  dependencies: Record<string, string> = directDependencies(packages),
  options: { lock?: GadgetLock | null; files?: GadgetFile[]; packageSource?: PackageSource } = {},
) {
  const tree = memoryTree(packages, dependencies);
  const lock = options.lock === null ? undefined : (options.lock ?? tree.lock);
  const files = gadgetWith(source, dependencies, lock, options.files);
  const manifest = JSON.parse(files[0]?.content ?? "{}") as GadgetManifest;
  // A workspace per build: the build cache never answers for another test.
  const result = await buildGadget(files, manifest, `ws${workspace++}`, options.packageSource ?? tree.source);
  return { result, asked: tree.source.asked };
}

async function modulesOf(
  source: string,
  packages: Record<string, MemoryPackage>,
  dependencies?: Record<string, string>,
) {
  const { result, asked } = await build(source, packages, dependencies);
  if (!result.ok) throw new Error(result.error.message);
  return { modules: result.build.gadget.modules, build: result.build, asked };
}

async function errorOf(source: string, packages: Record<string, MemoryPackage>, dependencies?: Record<string, string>) {
  const { result } = await build(source, packages, dependencies);
  if (result.ok) throw new Error("expected the build to fail");
  return result.error;
}

function directDependencies(packages: Record<string, MemoryPackage>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const path of Object.keys(packages))
    if (path.lastIndexOf("node_modules/") === 0) out[path.slice("node_modules/".length)] = "*";
  return out;
}

/** A gadget whose run() uses what `body` imports (TypeScript drops imports nothing uses). */
function run(body: string): string {
  const names = [...body.matchAll(/import\s+(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\})?\s*from/g)].flatMap((m) => [
    ...(m[1] ? [m[1]] : []),
    ...(m[2] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  ]);
  return `${body}\nexport default { async run() { return [${names.join(", ")}].length; } };`;
}

describe("loading packages", () => {
  it("loads an ES module package by its exports, named by its install path", async () => {
    const { modules } = await modulesOf(run('import { z } from "zod";'), {
      "node_modules/zod": {
        files: {
          "index.js": 'export { z } from "./lib/z.js";',
          "lib/z.js": "export const z = { string: () => 'string' };",
          "unused.js": "export const never = 1;",
        },
        manifest: { type: "module", exports: { ".": { import: "./index.js" } } },
      },
    });
    expect(modules["index.js"]).toContain('from "./node_modules/zod/index.js"');
    expect(modules["node_modules/zod/index.js"]).toContain('from "./lib/z.js"');
    expect(modules["node_modules/zod/lib/z.js"]).toBeDefined();
    // Only what the gadget reaches is loaded.
    expect(modules["node_modules/zod/unused.js"]).toBeUndefined();
  });

  it("wraps a CommonJS package and gives ES importers its named exports", async () => {
    const { modules } = await modulesOf(run('import lib, { greet } from "cjs-lib";'), {
      "node_modules/cjs-lib": {
        files: {
          "index.js": 'const helper = require("./helper");\nexports.greet = (n) => helper.hi + n;\nexports.other = 1;',
          "helper.js": "module.exports = { hi: 'hi ' };",
        },
      },
    });
    const facade = modules["node_modules/cjs-lib/index.js.__esm.js"] ?? "";
    expect(modules["index.js"]).toContain('from "./node_modules/cjs-lib/index.js.__esm.js"');
    expect(facade).toContain('as "greet"');
    expect(facade).toContain('as "other"');
    const wrapped = modules["node_modules/cjs-lib/index.js"] ?? "";
    expect(wrapped).toContain('from"./helper.js"');
    // The file's own lines keep their numbers: the wrapper sits on line 1.
    expect(wrapped.split("\n")[1]).toBe("exports.greet = (n) => helper.hi + n;");
  });

  it("matches exports conditions in the package's own key order, with the Worker's conditions", async () => {
    const files = {
      "w.js": "export const v = 'workerd';",
      "n.js": "export const v = 'node';",
      "i.mjs": "export const v = 'import';",
      "r.cjs": "exports.v = 'require';",
    };
    const workerdFirst = await modulesOf(run('import { v } from "dual";'), {
      "node_modules/dual": {
        files,
        manifest: { exports: { node: "./n.js", workerd: "./w.js", import: "./i.mjs", default: "./r.cjs" } },
      },
    });
    expect(workerdFirst.modules["index.js"]).toContain("node_modules/dual/w.js");
    const importFirst = await modulesOf(run('import { v } from "dual";'), {
      "node_modules/dual": { files, manifest: { exports: { node: "./n.js", import: "./i.mjs", workerd: "./w.js" } } },
    });
    expect(importFirst.modules["index.js"]).toContain("node_modules/dual/i.mjs.js");
    // A require() from a CommonJS package takes the `require` branch of the same package.
    const required = await modulesOf(run('import { v } from "user";'), {
      "node_modules/user": { files: { "index.js": 'module.exports = require("dual");' } },
      "node_modules/dual": { files, manifest: { exports: { ".": { import: "./i.mjs", require: "./r.cjs" } } } },
    });
    expect(required.modules["node_modules/user/index.js"]).toContain('from"../dual/r.cjs.js"');
    expect(required.modules["node_modules/user/index.js.__esm.js"]).toContain('as "v"');
  });

  it("loads scoped packages and subpaths: patterns, plain folders and exported subpaths", async () => {
    const { modules } = await modulesOf(
      run(
        'import { a } from "@scope/pkg";\nimport { addDays } from "date-fns/addDays";\nimport { mini } from "zod/mini";\nimport { x } from "plain/lib/x";',
      ),
      {
        "node_modules/@scope/pkg": {
          files: { "index.mjs": "export const a = 1;" },
          manifest: { exports: "./index.mjs" },
        },
        "node_modules/date-fns": {
          files: { "addDays.js": "export const addDays = 1;" },
          manifest: { type: "module", exports: { "./*": "./*.js" } },
        },
        "node_modules/zod": {
          files: { "mini/index.js": "export const mini = 1;", "index.js": "" },
          manifest: { type: "module", exports: { ".": "./index.js", "./mini": { import: "./mini/index.js" } } },
        },
        "node_modules/plain": { files: { "lib/x.js": "exports.x = 1;" } },
      },
    );
    expect(modules["node_modules/@scope/pkg/index.mjs.js"]).toBe("export const a = 1;");
    expect(modules["node_modules/date-fns/addDays.js"]).toBeDefined();
    expect(modules["node_modules/zod/mini/index.js"]).toBeDefined();
    expect(modules["node_modules/plain/lib/x.js.__esm.js"]).toContain('as "x"');
  });

  it("loads JSON a package imports or requires", async () => {
    const { modules } = await modulesOf(run('import { version } from "with-json";'), {
      "node_modules/with-json": {
        files: {
          "index.js": 'exports.version = require("./data.json").version;',
          "data.json": '{ "version": "1.2.3", "__proto__": 1 }',
        },
      },
    });
    expect(modules["node_modules/with-json/data.json.js"]).toContain("JSON.parse(");
    expect(modules["node_modules/with-json/index.js"]).toContain('import __workshop_d0 from"./data.json.js"');
  });

  it("finds nested versions through the nearest node_modules: a three-level chain with a conflict", async () => {
    const { modules } = await modulesOf(
      run('import { a } from "a";\nimport { b } from "b";'),
      {
        "node_modules/a": { files: { "index.js": 'exports.a = require("b").b + require("c").c;' } },
        "node_modules/a/node_modules/b": {
          version: "2.0.0",
          files: { "index.js": 'exports.b = "b2" + require("c").c;' },
        },
        "node_modules/b": { version: "1.0.0", files: { "index.js": 'exports.b = "b1";' } },
        "node_modules/c": { files: { "index.js": 'exports.c = "c";' } },
      },
      { a: "*", b: "1" },
    );
    expect(modules["node_modules/a/index.js"]).toContain('from"./node_modules/b/index.js"');
    expect(modules["node_modules/a/node_modules/b/index.js"]).toContain('from"../../../c/index.js"');
    expect(modules["index.js"]).toContain("./node_modules/b/index.js.__esm.js");
    expect(modules["node_modules/b/index.js"]).toContain('"b1"');
  });

  it("leaves Node built-ins to the runtime, under their node: name", async () => {
    const esm = await modulesOf(run('import { EventEmitter } from "uses-node";'), {
      "node_modules/uses-node": {
        files: { "esm.mjs": 'import { EventEmitter } from "events";\nexport { EventEmitter };' },
        manifest: { exports: "./esm.mjs" },
      },
    });
    expect(esm.modules["node_modules/uses-node/esm.mjs.js"]).toContain('from "node:events"');
    const cjs = await modulesOf(run('import { b } from "uses-node";'), {
      "node_modules/uses-node": {
        files: {
          "index.js": 'const { Buffer } = require("buffer");\nconst events = require("node:events");\nexports.b = 1;',
        },
      },
    });
    const wrapped = cjs.modules["node_modules/uses-node/index.js"] ?? "";
    expect(wrapped).toContain('import*as __workshop_d0 from"node:buffer"');
    expect(wrapped).toContain('import*as __workshop_d1 from"node:events"');
    expect(Object.keys(cjs.modules).some((name) => name.startsWith("node:"))).toBe(false);
  });

  it("refuses a native addon, naming the package and why", async () => {
    const error = await errorOf(run('import addon from "native";'), {
      "node_modules/native": { files: {}, manifest: { main: "build/Release/native.node" } },
    });
    expect(error.message).toContain('"native" 1.0.0');
    expect(error.message).toContain("native addon");
    // Required from inside a package, it fails only when (and if) required: `try { require(…) }` still works.
    const { modules } = await modulesOf(run('import fast from "maybe-fast";'), {
      "node_modules/maybe-fast": {
        files: {
          "index.js": 'try { module.exports = require("./build/Release/fast.node"); } catch { module.exports = {}; }',
        },
      },
    });
    expect(modules["node_modules/maybe-fast/index.js"]).toContain("cannot run in a Worker isolate");
  });

  it("refuses a package whose main or exports point nowhere, or a subpath it does not export", async () => {
    const main = await errorOf(run('import x from "broken";'), {
      "node_modules/broken": { files: {}, manifest: { main: "lib/gone.js" } },
    });
    expect(main.name).toBe("PackageError");
    expect(main.message).toContain('"main" is "lib/gone.js"');
    const exported = await errorOf(run('import x from "broken";'), {
      "node_modules/broken": { files: {}, manifest: { exports: { ".": "./dist/index.js" } } },
    });
    expect(exported.message).toContain('"./dist/index.js", a file the package does not contain');
    const subpath = await errorOf(run('import x from "zod/nope";'), {
      "node_modules/zod": {
        files: { "index.js": "" },
        manifest: { exports: { ".": "./index.js", "./mini": "./index.js" } },
      },
    });
    expect(subpath.message).toContain('does not export "./nope"');
    expect(subpath.message).toContain('"./mini"');
    expect(subpath.frames[0]).toMatchObject({ file: "index.ts", line: 1 });
  });

  it("refuses a private import mapped to a private import, and folders whose mains name each other", async () => {
    const loop = await errorOf(run('import x from "loops";'), {
      "node_modules/loops": {
        files: { "index.mjs": 'export { default } from "#a";' },
        manifest: { exports: "./index.mjs", imports: { "#a": "#b", "#b": "#a" } },
      },
    });
    expect(loop.name).toBe("PackageError");
    expect(loop.message).toContain('maps "#a" to "#b", another private import');
    const mains = await errorOf(run('import x from "folders";'), {
      "node_modules/folders": {
        files: {
          "index.mjs": 'export { default } from "./a";',
          "a/package.json": '{"main":"../b"}',
          "b/package.json": '{"main":"../a"}',
        },
        manifest: { exports: "./index.mjs" },
      },
    });
    expect(mains.name).toBe("PackageError");
    expect(mains.message).toContain('Cannot load "./a"');
  });

  it("refuses a built-in the Workers runtime lacks when an ES module imports it", async () => {
    const error = await errorOf(run('import x from "sea-user";'), {
      "node_modules/sea-user": {
        files: { "index.mjs": 'import sea from "node:sea";\nexport default sea;' },
        manifest: { exports: "./index.mjs" },
      },
    });
    expect(error.message).toContain('"node:sea"');
    expect(error.message).toContain("does not provide");
  });

  it("says how to add a package the manifest does not declare", async () => {
    const error = await errorOf(run('import { z } from "zod";'), {}, {});
    expect(error.message).toContain('"zod" is not in the "dependencies" of gadget.json');
    expect(error.message).toContain("gadgets add zod");
    expect(error.frames[0]).toMatchObject({ file: "index.ts", line: 1 });
  });

  it("refuses a missing or stale lock and says how to lock again", async () => {
    const packages = { "node_modules/zod": { files: { "index.js": "" } } };
    const missing = await build(run('import "zod";'), packages, { zod: "^4" }, { lock: null });
    expect(!missing.result.ok && missing.result.error.message).toContain("there is no gadget.lock.json");
    const stale = await build(
      run('import "zod";'),
      packages,
      { zod: "^4" },
      {
        lock: memoryTree(packages, { zod: "^3" }).lock,
      },
    );
    expect(!stale.result.ok && stale.result.error.message).toContain("stale");
    expect(!stale.result.ok && stale.result.error.message).toContain("gadgets add");
  });

  it("asks the store only for packages the gadget reaches", async () => {
    const { asked } = await modulesOf(run('import "a";'), {
      "node_modules/a": { files: { "index.js": "" } },
      "node_modules/b": { files: { "index.js": "" } },
    });
    expect(asked).toEqual(["a@1.0.0"]);
  });

  it("names the package a store could not serve", async () => {
    const { lock } = memoryTree({ "node_modules/a": { files: {} } }, { a: "*" });
    const { result } = await build(
      run('import "a";'),
      { "node_modules/a": { files: {} } },
      { a: "*" },
      {
        lock,
        packageSource: {
          files: async () => ({ ok: false, kind: "integrity", message: "a@1.0.0 does not match its integrity." }),
        },
      },
    );
    expect(!result.ok && result.error.message).toContain("a@1.0.0 does not match its integrity.");
  });

  it("keeps a gadget without dependencies as it was: same modules, no lock read", async () => {
    const files = gadgetWith(run(""), {}, undefined);
    const manifest = JSON.parse(files[0]?.content ?? "{}") as GadgetManifest;
    const result = await buildGadget(files, { ...manifest, dependencies: undefined }, "plain");
    expect(result.ok && Object.keys(result.build.gadget.modules).sort()).toEqual(
      ["__workshop_console.js", "__workshop_harness.js", "index.js"].sort(),
    );
    // The lock is one of the files: its content is part of the hash.
    const tree = memoryTree({ "node_modules/a": { files: {} } }, { a: "*" });
    const other = memoryTree({ "node_modules/a": { version: "1.0.1", files: {} } }, { a: "*" });
    expect(await contentHash(gadgetWith("", { a: "*" }, tree.lock))).not.toBe(
      await contentHash(gadgetWith("", { a: "*" }, other.lock)),
    );
  });

  it(`loads up to MAX_TREE_UNPACKED_BYTES (${MAX_TREE_UNPACKED_BYTES}) of package code, and not a byte more`, async () => {
    // A JSON file loads as `export default JSON.parse("…");\n`: its size is known exactly.
    // The JSON text's own quotes, and those quotes again, escaped, inside a string literal.
    const overhead = "export default JSON.parse();\n".length + 6;
    const sized = (bytes: number) => ({
      "node_modules/big": {
        files: {
          "index.js": 'module.exports = require("./data.json");',
          "data.json": `"${"a".repeat(bytes - overhead)}"`,
        },
      },
    });
    const wrapperBytes = async () => {
      const { modules } = await modulesOf(run('import "big";'), sized(1000));
      return (
        (modules["node_modules/big/index.js"] ?? "").length +
        (modules["node_modules/big/index.js.__esm.js"] ?? "").length
      );
    };
    const rest = await wrapperBytes();
    const atLimit = await build(run('import "big";'), sized(MAX_TREE_UNPACKED_BYTES - rest));
    expect(atLimit.result.ok).toBe(true);
    const over = await build(run('import "big";'), sized(MAX_TREE_UNPACKED_BYTES - rest + 1));
    expect(!over.result.ok && over.result.error.message).toContain(`more than ${MAX_TREE_UNPACKED_BYTES} bytes`);
  }, 60_000);
});

describe("the build cache", () => {
  it("keeps a build by its size: one that would fill the isolate is built again", async () => {
    const tree = (chars: number) =>
      memoryTree(
        { "node_modules/big": { files: { "index.js": `module.exports = "${"a".repeat(chars)}";` } } },
        {
          big: "*",
        },
      );
    const twice = async (chars: number) => {
      const { lock, source } = tree(chars);
      const files = gadgetWith(run('import "big";'), { big: "*" }, lock);
      const manifest = JSON.parse(files[0]?.content ?? "{}") as GadgetManifest;
      const id = `ws${workspace++}`;
      const first = await buildGadget(files, manifest, id, source);
      const second = await buildGadget(files, manifest, id, source);
      return [first.ok && first.cached, second.ok && second.cached];
    };
    // Strings count twice their length (UTF-16), as the build cache counts them.
    expect(await twice(BUILD_CACHE_BYTES / 4)).toEqual([false, true]);
    expect(await twice(BUILD_CACHE_BYTES / 2)).toEqual([false, false]);
  }, 60_000);
});

describe("stacks through packages", () => {
  it("maps a CommonJS frame back to the package's file, past the wrapper on line 1", async () => {
    const { build: built, modules } = await modulesOf(run('import { f } from "thrower";'), {
      "node_modules/thrower": { files: { "index.js": "exports.f = () => { throw new Error('x'); };" } },
    });
    const prefix = (modules["node_modules/thrower/index.js"] ?? "").indexOf("exports.f");
    expect(mapPosition(built, "node_modules/thrower/index.js", 1, prefix + 21)).toEqual({
      path: "node_modules/thrower/index.js",
      line: 1,
      column: 21,
    });
    const error = mapError(
      {
        name: "Error",
        message: "x",
        stack: `Error: x\n    at f (node_modules/thrower/index.js:1:${prefix + 21})\n    at run (index.js:2:10)`,
      },
      built,
    );
    expect(error.stack).toContain("at f (node_modules/thrower/index.js:1:21)");
    expect(error.stack).toContain("at run (index.ts:2:");
  });

  it("maps through the package's own source map, and undoes rewritten specifiers", async () => {
    // dist/index.js line 2 column 1 comes from src/index.ts line 10 column 5.
    const map = { version: 3, sources: ["../src/index.ts"], names: [], mappings: ";AASI" };
    const { build: built, modules } = await modulesOf(run('import { g } from "mapped";'), {
      "node_modules/mapped": {
        files: {
          "dist/index.js": 'import { h } from "./h";\nexport const g = () => h();\n//# sourceMappingURL=index.js.map',
          "dist/index.js.map": JSON.stringify(map),
          "dist/h.js": "export const h = () => { throw new Error('h'); };",
        },
        manifest: { type: "module", exports: "./dist/index.js" },
      },
    });
    expect(modules["node_modules/mapped/dist/index.js"]).toContain('from "./h.js"');
    expect(mapPosition(built, "node_modules/mapped/dist/index.js", 2, 1)).toEqual({
      path: "node_modules/mapped/src/index.ts",
      line: 10,
      column: 5,
    });
    // `./h` became `./h.js`: a frame after it on line 1 moves back by the 3 characters.
    expect(mapPosition(built, "node_modules/mapped/dist/index.js", 1, 30)).toMatchObject({ column: 27 });
  });
});
