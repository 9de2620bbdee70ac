/**
 * Builds a library package of this repository into what its tarball ships (`pnpm pack`): JavaScript
 * with every dependency bundled in, and a `.d.ts` per entry with the dependencies' types inlined. So a
 * package installed from its tarball needs nothing from a registry, and Node never meets TypeScript in
 * node_modules (it refuses to strip types there).
 *
 * Inside the repository a package's `exports` point at its sources. Its `publishConfig.exports` (which
 * pnpm writes into the packed manifest instead) names the built files, and is what this script reads:
 * `dist/<name>.js` and `dist/<name>.d.ts` are built from `src/<name>.ts` — for the `node` condition
 * with Node's own modules at hand, for `default` for any runtime (browsers, Workers, Node).
 *
 * Run in the package's folder: `node ../workshop-shared/scripts/build-package.ts`.
 */

import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import dtsBundleGenerator from "dts-bundle-generator";
import { build } from "esbuild";

/** `ws`'s optional native speed-ups: it loads them in a try and works without them. */
const OPTIONAL_NATIVE_MODULES = ["bufferutil", "utf-8-validate"];

type ExportTarget = string | { [condition: string]: ExportTarget };

interface PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  publishConfig?: { exports?: Record<string, ExportTarget> };
}

/** Every built file the published exports name, with the condition it is listed under. */
function builtFiles(target: ExportTarget, condition = "default"): { condition: string; file: string }[] {
  if (typeof target === "string") return [{ condition, file: target }];
  return Object.entries(target).flatMap(([name, inner]) => builtFiles(inner, name));
}

/** `./dist/a/b.js` or `./dist/a/b.d.ts` → `src/a/b.ts`. */
function sourceOf(file: string): string {
  const match = /^\.\/dist\/(.+?)(\.d\.ts|\.js)$/.exec(file);
  if (!match) throw new Error(`publishConfig.exports names ${file}: expected ./dist/<name>.js or ./dist/<name>.d.ts.`);
  return `src/${match[1]}.ts`;
}

const root = process.cwd();
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as PackageManifest;
if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0)
  throw new Error(
    `${manifest.name} lists dependencies (${Object.keys(manifest.dependencies).join(", ")}): an installed tarball would fetch them from a registry. They are bundled into its build, so list them under devDependencies.`,
  );
const exportsMap = manifest.publishConfig?.exports;
if (!exportsMap) throw new Error(`${manifest.name} has no publishConfig.exports naming its built files.`);

const files = Object.values(exportsMap).flatMap((target) => builtFiles(target));
const entries = (condition: "node" | "default") =>
  files
    .filter((entry) => entry.condition === condition && entry.file.endsWith(".js"))
    .map((entry) => ({ in: join(root, sourceOf(entry.file)), out: entry.file.slice("./dist/".length, -".js".length) }));

// Built apart and moved into place at the end, so a pack running meanwhile never sees half a dist.
const building = join(root, "node_modules", ".cache", `build-package-${process.pid}`);
rmSync(building, { recursive: true, force: true });

const common = {
  bundle: true,
  format: "esm",
  target: "es2022",
  outdir: building,
  // Entries of one build share their modules through chunks, so a class has one identity across them.
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "inline",
  logLevel: "warning",
} as const;

const defaultEntries = entries("default");
if (defaultEntries.length > 0) await build({ ...common, entryPoints: defaultEntries, platform: "neutral" });
const nodeEntries = entries("node");
if (nodeEntries.length > 0)
  await build({
    ...common,
    entryPoints: nodeEntries,
    platform: "node",
    target: "node20",
    external: OPTIONAL_NATIVE_MODULES,
    // CommonJS dependencies (ws) bundled into an ES module still call require for Node's own modules.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });

const typeFiles = files.filter((entry) => entry.file.endsWith(".d.ts")).map((entry) => entry.file);
const inlined = Object.keys(manifest.devDependencies ?? {}).filter((name) => !name.startsWith("@types/"));
const declarations = dtsBundleGenerator.generateDtsBundle(
  typeFiles.map((file) => ({
    filePath: join(root, sourceOf(file)),
    libraries: { inlinedLibraries: inlined },
    output: { noBanner: true },
  })),
  { preferredConfigPath: join(root, "tsconfig.json") },
);
/**
 * capnweb's `Unstubify` spreads `Unstubify<Tail>` into a tuple, and that type is a union with a Promise
 * in it: a consumer's TypeScript that checks library types refuses it (TS2574, "A rest element type must
 * be an array type"). Mapped element by element, the tail means what it says and checks.
 */
function checkableTupleRests(text: string): string {
  return text.replaceAll("...Unstubify<Tail>", "...{ [I in keyof Tail]: Unstubify<Tail[I]> }");
}

typeFiles.forEach((file, index) => {
  const text = checkableTupleRests(declarations[index] ?? "");
  // Types left importing a package would need it installed: every one must be inlined above.
  const outside = /^(?:import|export)\b[^;]*\bfrom\s+"([^".][^"]*)"/m.exec(text)?.[1];
  if (outside) throw new Error(`${file} imports types from ${outside}, which an installed package would not have.`);
  // The stubs are Disposable: without this lib a consumer's TypeScript (say target ES2022) would not know
  // the type, and under skipLibCheck every stub would silently become `any`.
  writeFileSync(join(building, file.slice("./dist/".length)), `/// <reference lib="esnext.disposable" />\n${text}`);
});
rmSync(join(root, "dist"), { recursive: true, force: true });
renameSync(building, join(root, "dist"));
