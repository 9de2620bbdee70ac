/**
 * Turns a gadget's files into modules an isolate can load: TypeScript is transpiled with sucrase
 * (fast, small, keeps line numbers), relative imports are resolved to the gadget's own modules, and a
 * source map is kept per module so stacks point at the gadget's file:line. Builds are cached by
 * workspace and a content hash of the files, which is also the isolate cache key's code part.
 */

import { type EncodedSourceMap, originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import type { GadgetFile, GadgetManifest, RunErrorInfo } from "@gadgets/workshop-shared/api";
import { isModulePath } from "@gadgets/workshop-shared/validate";
import { transform } from "sucrase";
import type { BuiltGadget } from "../executors/executor.ts";
import { type ModuleImport, positionOf, rewriteImports, scanImports } from "./module-imports.ts";
import { HARNESS_CONSOLE_MODULE, HARNESS_MODULE } from "../isolate/harness/contract.ts";
import { HARNESS_DIGEST, harnessModules } from "../isolate/harness-modules.ts";
import { LRUCache } from "lru-cache";

export interface GadgetBuild {
  gadget: BuiltGadget;
  /** Module name in the isolate → the gadget file it came from. */
  sources: Map<string, { path: string; map: TraceMap | undefined }>;
}

/** `cached`: this workspace built the same files before, and the build was taken from the cache. */
export type BuildResult = { ok: true; build: GadgetBuild; cached: boolean } | { ok: false; error: RunErrorInfo };

/**
 * Bumped whenever the module layout changes, so old cached isolates are not reused (a changed harness
 * changes HARNESS_DIGEST, which is hashed too).
 */
const BUILD_FORMAT = "2";
/**
 * Builds kept in memory; a build is a few hundred KB at most. One cache for all workspaces, bounded as a
 * whole, but an entry serves only the workspace that built it: a hit is much faster than a build, so
 * a shared entry would tell a workspace that someone else had built the very same files.
 */
const BUILD_CACHE_SIZE = 128;
const buildCache = new LRUCache<string, GadgetBuild>({ max: BUILD_CACHE_SIZE });

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

function dirname(path: string): string {
  const at = path.lastIndexOf("/");
  return at === -1 ? "" : path.slice(0, at);
}

function joinPath(base: string, relative: string): string | undefined {
  const parts = base ? base.split("/") : [];
  for (const segment of relative.split("/")) {
    if (segment === "." || segment === "") continue;
    if (segment === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join("/");
}

function relativeSpecifier(fromModule: string, toModule: string): string {
  const from = dirname(fromModule).split("/").filter(Boolean);
  const to = toModule.split("/");
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  const rest = to.slice(common).join("/");
  return up === 0 ? `./${rest}` : `${"../".repeat(up)}${rest}`;
}

/** Resolves `./util`, `./util.ts`, `./util.js` or `./lib` (index) to a gadget module path. */
function resolveImport(fromPath: string, specifier: string, modulePaths: ReadonlySet<string>): string | undefined {
  const joined = joinPath(dirname(fromPath), specifier);
  if (joined === undefined) return undefined;
  const stem = joined.replace(/\.(m?js|ts)$/, "");
  const candidates = [joined, `${stem}.ts`, `${stem}.js`, `${stem}.mjs`, `${joined}/index.ts`, `${joined}/index.js`];
  return candidates.find((candidate) => modulePaths.has(candidate));
}

/**
 * Import specifiers: `import … from "x"` / `export … from "x"` / `import "x"` at the start of a
 * statement line (a clause may span lines), and `import("x")` with a literal. Anchoring to statement
 * starts keeps text like `log("from 'Bob'")` from being taken for an import. A clause never runs into
 * the next import or export line, so each part of the text is scanned once: gadget code is parsed on
 * the Worker's thread, and a backtracking scan over it would be quadratic. This check is for clear
 * build errors, not the sandbox: at run time an isolate can load nothing but its own modules and the
 * runtime's harmless built-ins.
 */
/** Builds (or fetches from cache) the modules for a validated gadget. */
export async function buildGadget(
  files: readonly GadgetFile[],
  manifest: GadgetManifest,
  workspaceId: string,
): Promise<BuildResult> {
  const hash = await contentHash(files);
  const key = `${workspaceId}:${hash}`;
  const cached = buildCache.get(key);
  if (cached) return { ok: true, build: cached, cached: true };

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

  const modules: Record<string, string> = {};
  const sources = new Map<string, { path: string; map: TraceMap | undefined }>();
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
    const targets = new Map<ModuleImport, string>();
    for (const entry of scan.imports) {
      const at = () => positionOf(code, entry.start);
      if (!entry.specifier.startsWith("./") && !entry.specifier.startsWith("../")) {
        badImport = buildError(
          "BuildError",
          `Cannot import "${entry.specifier}" in ${file.path}: a gadget can import only its own files ("./util"). Capabilities come in through run(payload, env).`,
          file.path,
          at().line,
          at().column,
        );
        break;
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
      targets.set(entry, target);
    }
    if (badImport) return { ok: false, error: badImport };
    code = rewriteImports(code, scan.imports, (entry) =>
      relativeSpecifier(moduleName, moduleNameFor(targets.get(entry) as string)),
    );
    modules[moduleName] = code;
    sources.set(moduleName, { path: file.path, map });
  }

  Object.assign(modules, harnessModules(moduleNameFor(manifest.entry)));
  const build: GadgetBuild = { gadget: { hash, mainModule: HARNESS_MODULE, modules }, sources };
  buildCache.set(key, build);
  return { ok: true, build, cached: false };
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
  if (!source.map) return { path: source.path, line, column };
  const original = originalPositionFor(source.map, { line, column: Math.max(0, column - 1) });
  if (original.line === null) return { path: source.path, line, column };
  return { path: source.path, line: original.line, column: original.column + 1 };
}
