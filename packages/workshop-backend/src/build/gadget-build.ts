/**
 * Turns a gadget's files into modules an isolate can load: TypeScript is transpiled with sucrase
 * (fast, small, keeps line numbers), relative imports are resolved to the gadget's own modules, and a
 * source map is kept per module so stacks point at the gadget's file:line. Bare imports of the
 * manifest's `dependencies` load from the tree `gadget.lock.json` locks (package-graph.ts). Builds are
 * cached by workspace and a content hash of the files — the lock is one of them, so it is covered —
 * which is also the isolate cache key's code part.
 */

import { type EncodedSourceMap, originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import type { GadgetFile, GadgetManifest, RunErrorInfo } from "@gadgets/workshop-shared/api";
import { isModulePath } from "@gadgets/workshop-shared/validate";
import { transform } from "sucrase";
import type { BuiltGadget } from "../executors/executor.ts";
import { moduleBytes } from "../executors/code-cache.ts";
import { BUILD_CACHE_BYTES } from "../isolate-caches.ts";
import { type ModuleImport, positionOf, rewriteImports, scanImports } from "./module-imports.ts";
import { dirname, joinInside, relativeSpecifier } from "./module-paths.ts";
import { HARNESS_CONSOLE_MODULE, HARNESS_MODULE } from "../isolate/harness/contract.ts";
import { HARNESS_DIGEST, harnessModules } from "../isolate/harness-modules.ts";
import { LRUCache } from "lru-cache";
import type { PackageSource } from "../packages/package-source.ts";
import { type PackageModuleSource, PackageGraph, type PackageProblem } from "./package-graph.ts";
import { readLock } from "./package-lock.ts";
import { splitBareSpecifier } from "./package-entry.ts";
import { builtinModule } from "./node-builtins.ts";
import { LOCK_PATH, MANIFEST_PATH } from "@gadgets/workshop-shared/api";
import { type LazySourceMap, throughPackageMap, unshift } from "./package-source-map.ts";

/** Where a module's frames point: a gadget file (through its transpile map) or a package's file. */
export type ModuleSource =
  | { path: string; map: TraceMap | undefined; package?: undefined }
  | { path: string; map?: undefined; package: PackageModuleSource & { installPath: string } };

export interface GadgetBuild {
  gadget: BuiltGadget;
  /** Module name in the isolate → the file it came from. */
  sources: Map<string, ModuleSource>;
}

/** `cached`: this workspace built the same files before, and the build was taken from the cache. */
/** `key`: the build's key in this isolate's build cache (see `cachedBuild`). */
export type BuildResult =
  | { ok: true; build: GadgetBuild; key: string; cached: boolean }
  | { ok: false; error: RunErrorInfo };

/**
 * Bumped whenever the module layout changes, so old cached isolates are not reused (a changed harness
 * changes HARNESS_DIGEST, which is hashed too).
 */
const BUILD_FORMAT = "2";
/**
 * Builds kept in memory. One cache for all workspaces, bounded as a whole, but an entry serves only the
 * workspace that built it: a hit is much faster than a build, so a shared entry would tell a workspace
 * that someone else had built the very same files. Bounded by size as well as count: a gadget with
 * packages may carry tens of MB of code, and a few such builds would fill the isolate; one larger than
 * the whole bound is built per run. The one holder of built modules in the Worker isolate.
 */
const BUILD_CACHE_SIZE = 128;
const buildCache = new LRUCache<string, GadgetBuild>({
  max: BUILD_CACHE_SIZE,
  maxSize: BUILD_CACHE_BYTES,
  sizeCalculation: buildBytes,
});

/** A build this isolate still holds, by the key `buildGadget` answered with it. */
export function cachedBuild(key: string): GadgetBuild | undefined {
  return buildCache.get(key);
}

/** What a build holds in memory, as the code cache counts it (its modules, UTF-16). */
export function buildBytes(build: GadgetBuild): number {
  return Math.max(1, moduleBytes(build.gadget.modules));
}

/** The isolate module name of a gadget file: `.ts` becomes `.js`, other paths stay. */
export function moduleNameFor(path: string): string {
  return path.endsWith(".ts") ? `${path.slice(0, -3)}.js` : path;
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** SHA-256 over the files in path order: equal gadgets share one hash. */
export async function contentHash(files: readonly GadgetFile[]): Promise<string> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const text = `${BUILD_FORMAT}\0${HARNESS_DIGEST}\0${sorted.map((f) => `${f.path}\0${f.content.length}\0${f.content}`).join("\0")}`;
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function buildError(name: string, message: string, file: string, line: number, column: number): RunErrorInfo {
  return {
    name,
    message,
    stack: `${name}: ${message}\n    at ${file}:${line}:${column}`,
    frames: [{ fn: "", file, line, column }],
  };
}

/** Resolves `./util`, `./util.ts`, `./util.js` or `./lib` (index) to a gadget module path. */
function resolveImport(fromPath: string, specifier: string, modulePaths: ReadonlySet<string>): string | undefined {
  const joined = joinInside(dirname(fromPath), specifier);
  if (joined === undefined) return undefined;
  const stem = joined.replace(/\.(m?js|ts)$/, "");
  const candidates = [joined, `${stem}.ts`, `${stem}.js`, `${stem}.mjs`, `${joined}/index.ts`, `${joined}/index.js`];
  return candidates.find((candidate) => modulePaths.has(candidate));
}

function packageError(problem: PackageProblem, file: string, line = 1, column = 1): RunErrorInfo {
  return buildError("PackageError", problem.message, file, line, column);
}

const PACKAGE_FILE_PREFIX = "node_modules/";

/** Builds (or fetches from cache) the modules for a validated gadget; `packages` serves its locked packages. */
export async function buildGadget(
  files: readonly GadgetFile[],
  manifest: GadgetManifest,
  workspaceId: string,
  packages?: PackageSource,
): Promise<BuildResult> {
  const hash = await contentHash(files);
  const key = `${workspaceId}:${hash}`;
  const cached = buildCache.get(key);
  if (cached) return { ok: true, build: cached, key, cached: true };

  const codeFiles = files.filter((file) => isModulePath(file.path));
  const modulePaths = new Set(codeFiles.map((file) => file.path));
  const taken = new Map<string, string>();
  for (const file of codeFiles) {
    const name = moduleNameFor(file.path);
    const other = taken.get(name);
    const reserved = name === HARNESS_MODULE || name === HARNESS_CONSOLE_MODULE ? name : undefined;
    if (other !== undefined || reserved !== undefined) {
      return {
        ok: false,
        error: buildError(
          "BuildError",
          `"${file.path}" and "${other ?? reserved}" would both load as module "${name}"; rename one of them.`,
          file.path,
          1,
          1,
        ),
      };
    }
    taken.set(name, file.path);
  }

  const lockRead = readLock(files, manifest);
  if (!lockRead.ok)
    return { ok: false, error: packageError({ kind: lockRead.kind, message: lockRead.message }, LOCK_PATH) };
  const dependencies = manifest.dependencies ?? {};
  // Made on the first import of a package: a gadget without dependencies never touches one.
  let graph: PackageGraph | undefined;
  const packageGraph = () => {
    if (!lockRead.lock || !packages) return undefined;
    graph ??= new PackageGraph(lockRead.lock, packages, new Set(taken.keys()));
    return graph;
  };

  const modules: Record<string, string> = {};
  const sources = new Map<string, ModuleSource>();
  for (const file of codeFiles) {
    const moduleName = moduleNameFor(file.path);
    let code = file.content;
    let map: TraceMap | undefined;
    if (file.path.endsWith(".ts")) {
      try {
        const out = transform(file.content, {
          transforms: ["typescript"],
          disableESTransforms: true,
          filePath: file.path,
          sourceMapOptions: { compiledFilename: moduleName },
        });
        code = out.code;
        if (out.sourceMap) map = new TraceMap({ ...out.sourceMap, sources: [file.path] } as EncodedSourceMap);
      } catch (thrown) {
        const error = thrown as Error & { loc?: { line: number; column: number } };
        const where = /\((\d+):(\d+)\)\s*$/.exec(error.message ?? "");
        const line = error.loc?.line ?? (where ? Number(where[1]) : 1);
        const column = (error.loc?.column ?? (where ? Number(where[2]) : 0)) + 1;
        const message = String(error.message ?? thrown).replace(/^Error transforming [^:]*: /, "");
        return { ok: false, error: buildError("SyntaxError", `${message} in ${file.path}`, file.path, line, column) };
      }
    }
    const scan = scanImports(code);
    if (!scan.ok) {
      const at = positionOf(code, scan.offset);
      return {
        ok: false,
        error: buildError("SyntaxError", `${scan.message} in ${file.path}`, file.path, at.line, at.column),
      };
    }
    let badImport: RunErrorInfo | undefined;
    /** Each import's specifier as the module will say it. */
    const targets = new Map<ModuleImport, string>();
    for (const entry of scan.imports) {
      const at = () => positionOf(code, entry.start);
      if (!entry.specifier.startsWith("./") && !entry.specifier.startsWith("../")) {
        const bare = splitBareSpecifier(entry.specifier);
        const declared = bare !== undefined && Object.hasOwn(dependencies, bare.name);
        if (!declared) {
          badImport = buildError(
            "BuildError",
            undeclaredImport(entry.specifier, bare?.name, file.path),
            file.path,
            at().line,
            at().column,
          );
          break;
        }
        const from = packageGraph();
        if (!from) {
          badImport = buildError(
            "PackageError",
            `Cannot import "${entry.specifier}" in ${file.path}: packages cannot be loaded for this run.`,
            file.path,
            at().line,
            at().column,
          );
          break;
        }
        const loaded = await from.gadgetImport(entry.specifier);
        if (!loaded.ok) {
          badImport = packageError(
            {
              ...loaded.problem,
              message: `Cannot import "${entry.specifier}" in ${file.path}: ${loaded.problem.message}`,
            },
            file.path,
            at().line,
            at().column,
          );
          break;
        }
        targets.set(
          entry,
          loaded.module.startsWith("node:") ? loaded.module : relativeSpecifier(moduleName, loaded.module),
        );
        continue;
      }
      const target = resolveImport(file.path, entry.specifier, modulePaths);
      if (target === undefined) {
        badImport = buildError(
          "BuildError",
          `Cannot find "${entry.specifier}" imported by ${file.path}: no such file in this gadget.`,
          file.path,
          at().line,
          at().column,
        );
        break;
      }
      targets.set(entry, relativeSpecifier(moduleName, moduleNameFor(target)));
    }
    if (badImport) return { ok: false, error: badImport };
    code = rewriteImports(code, scan.imports, (entry) => targets.get(entry) as string);
    modules[moduleName] = code;
    sources.set(moduleName, { path: file.path, map });
  }

  if (graph) {
    const done = await graph.complete();
    if (!done.ok) return { ok: false, error: packageError(done.problem, LOCK_PATH) };
    Object.assign(modules, graph.modules);
    for (const [name, source] of graph.sources) {
      const installPath = installPathOf(source.path);
      sources.set(name, { path: source.path, package: { ...source, installPath } });
    }
  }

  Object.assign(modules, harnessModules(moduleNameFor(manifest.entry)));
  const build: GadgetBuild = { gadget: { hash, mainModule: HARNESS_MODULE, modules }, sources };
  buildCache.set(key, build);
  return { ok: true, build, key, cached: false };
}

/** The words for a bare import the manifest does not declare: how to declare it, or why a gadget cannot. */
function undeclaredImport(specifier: string, name: string | undefined, file: string): string {
  const builtin = builtinModule(specifier);
  if (name === undefined || builtin.kind !== "not-builtin" || specifier.includes(":"))
    return `Cannot import "${specifier}" in ${file}: a gadget can import only its own files ("./util") and the npm packages its ${MANIFEST_PATH} names in "dependencies". Capabilities come in through run(payload, env).`;
  return `Cannot import "${specifier}" in ${file}: "${name}" is not in the "dependencies" of ${MANIFEST_PATH}. Add it there (the IDE's quick fix or \`gadgets add ${name}\` picks the newest version), then save to lock it.`;
}

/** `node_modules/a/node_modules/@s/b` of a package file `node_modules/a/node_modules/@s/b/lib/x.js`. */
function installPathOf(path: string): string {
  const at = path.lastIndexOf(PACKAGE_FILE_PREFIX);
  const rest = path.slice(at + PACKAGE_FILE_PREFIX.length).split("/");
  const nameParts = rest[0]?.startsWith("@") ? 2 : 1;
  return path.slice(0, at + PACKAGE_FILE_PREFIX.length) + rest.slice(0, nameParts).join("/");
}

/** Maps a generated position back to the gadget source; identity where no map exists. */
export function mapPosition(
  build: GadgetBuild,
  moduleName: string,
  line: number,
  column: number,
): { path: string; line: number; column: number } | undefined {
  const source = build.sources.get(moduleName);
  if (!source) return undefined;
  if (source.package) return mapPackagePosition(source.path, source.package, line, column);
  if (!source.map) return { path: source.path, line, column };
  const original = originalPositionFor(source.map, { line, column: Math.max(0, column - 1) });
  if (original.line === null) return { path: source.path, line, column };
  return { path: source.path, line: original.line, column: original.column + 1 };
}

function mapPackagePosition(
  path: string,
  source: { installPath: string; shifts: PackageModuleSource["shifts"]; packageMap?: LazySourceMap },
  line: number,
  generatedColumn: number,
): { path: string; line: number; column: number } {
  const column = unshift(source.shifts, line, generatedColumn);
  const map = source.packageMap?.();
  return (map && throughPackageMap(map, source.installPath, line, column)) ?? { path, line, column };
}
