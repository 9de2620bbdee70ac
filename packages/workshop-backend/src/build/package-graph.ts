/**
 * The modules of a gadget's packages: starting from the gadget's own bare imports, every file they
 * reach is read from the locked tree, resolved as npm lays packages out (the nearest `node_modules`
 * up from the importing package, so nested versions work), made loadable (ES modules keep their code
 * with specifiers rewritten; CommonJS is wrapped, see cjs-module.ts; JSON becomes a module) and named
 * by its install path, so a stack frame reads `node_modules/zod/index.js:3:7`. Files nothing imports
 * are never loaded, and a package's files are asked of the PackageSource only once one is reached.
 */

import { type GadgetLock, LOCK_PATH, type LockedPackage, type PackageErrorKind } from "@gadgets/workshop-shared/api";
import { MAX_TREE_UNPACKED_BYTES } from "@gadgets/workshop-shared/limits";
import { byteLength } from "@gadgets/workshop-shared/validate";
import { parse as parseModule } from "es-module-lexer/js";
import type { PackageSource } from "../packages/package-source.ts";
import {
  commonJsExports,
  esmFacade,
  jsonModule,
  type RequireTarget,
  requireSpecifiers,
  wrapCommonJs,
} from "./cjs-module.ts";
import { type ModuleImport, scanImports } from "./module-imports.ts";
import { dirname, joinInside, relativeSpecifier } from "./module-paths.ts";
import { builtinModule } from "./node-builtins.ts";
import {
  type EntryResult,
  type ImportKind,
  type PackageFiles,
  type PackageManifest,
  parseManifest,
  probeFile,
  resolvePackageEntry,
  resolvePackageImport,
  splitBareSpecifier,
} from "./package-entry.ts";
import { type ColumnShift, sourceMapOf, type LazySourceMap } from "./package-source-map.ts";

/** Where a stack frame in a package module points, and how to map it back to the package's file. */
export interface PackageModuleSource {
  /** The file of the package (`node_modules/zod/index.cjs`), as a frame names it. */
  path: string;
  /** Where the build moved code right on a line (CommonJS wrapping, rewritten specifiers). */
  shifts: readonly ColumnShift[];
  /** The package's own source map of the file, when it ships one (read on first use). */
  packageMap?: LazySourceMap;
}

export interface PackageProblem {
  kind: PackageErrorKind;
  /** The package at fault. */
  package?: string;
  message: string;
}

/** Thrown inside the walk, answered as a build error at its boundary. */
class PackageLoadError extends Error {
  readonly problem: PackageProblem;
  constructor(problem: PackageProblem) {
    super(problem.message);
    this.problem = problem;
  }
}

interface LoadedPackage {
  installPath: string;
  entry: LockedPackage;
  files: PackageFiles;
  manifest: PackageManifest;
  /** `"type": "module"`: its `.js` files are ES modules, and import CommonJS as Node does. */
  typeModule: boolean;
}

type Format = "esm" | "cjs" | "json";

/** Who asks for a specifier: the gadget itself (installPath "") or a file of a package. */
interface Importer {
  installPath: string;
  /** Path inside the package ("" for the gadget). */
  file: string;
  /** `import` by Node's rules (a `.mjs` file, a `"type": "module"` package) rather than a bundler's. */
  nodeMode: boolean;
}

type Resolved =
  | { kind: "file"; pkg: LoadedPackage; file: string }
  | { kind: "builtin"; specifier: string }
  | { kind: "fail"; problem: PackageProblem };

const GADGET: Importer = { installPath: "", file: "", nodeMode: false };

const label = (entry: LockedPackage) => `"${entry.name}" ${entry.version}`;

/** An isolate loads text modules only under a `.js` name. */
function moduleNameOf(path: string): string {
  return path.endsWith(".js") ? path : `${path}.js`;
}

/** The rewritten code and where it moved right: one pass over the imports, in code order. */
function rewriteTracked(
  code: string,
  imports: readonly ModuleImport[],
  replace: (entry: ModuleImport) => string,
): { code: string; shifts: ColumnShift[] } {
  const shifts: ColumnShift[] = [];
  let out = "";
  let at = 0;
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  let shiftLine = 1;
  let lineDelta = 0;
  for (const entry of imports) {
    for (; scanned < entry.start; scanned++) {
      if (code.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    }
    if (line !== shiftLine) {
      shiftLine = line;
      lineDelta = 0;
    }
    const text = replace(entry);
    const written = entry.quoted ? JSON.stringify(text) : text;
    out += code.slice(at, entry.start) + written;
    const delta = written.length - (entry.end - entry.start);
    if (delta !== 0) {
      lineDelta += delta;
      shifts.push({ line, from: entry.end - lineStart + 1 + lineDelta, delta: lineDelta });
    }
    at = entry.end;
  }
  return { code: out + code.slice(at), shifts };
}

/** Whether a file of a package loads as an ES module, CommonJS or JSON, as Node and esbuild decide. */
function formatOf(pkg: LoadedPackage, file: string): Format {
  if (file.endsWith(".json")) return "json";
  if (file.endsWith(".mjs")) return "esm";
  if (file.endsWith(".cjs")) return "cjs";
  if (pkg.typeModule) return "esm";
  // Without "type": "module", a `.js` file with import or export statements is still an ES module:
  // the `module` field of bundler-era packages points at such files (esbuild and Node 22 detect them too).
  try {
    const [, , , hasModuleSyntax] = parseModule(pkg.files.get(file) ?? "");
    return hasModuleSyntax ? "esm" : "cjs";
  } catch {
    return "cjs";
  }
}

export class PackageGraph {
  /** Module name → text, for the isolate. */
  readonly modules: Record<string, string> = {};
  /** Module name → where its frames point. */
  readonly sources = new Map<string, PackageModuleSource>();
  readonly #lock: GadgetLock;
  readonly #source: PackageSource;
  readonly #taken: ReadonlySet<string>;
  readonly #packages = new Map<string, Promise<LoadedPackage>>();
  /** Module names made or queued, so each file is made once. */
  readonly #planned = new Set<string>();
  readonly #queue: (() => Promise<void>)[] = [];
  readonly #formats = new Map<string, Format>();
  #bytes = 0;

  /** `taken`: module names of the gadget's own files, which no package module may take. */
  constructor(lock: GadgetLock, source: PackageSource, taken: ReadonlySet<string>) {
    this.#lock = lock;
    this.#source = source;
    this.#taken = taken;
  }

  /**
   * The module a gadget file imports for a bare specifier (`zod`, `date-fns/addDays`): a package
   * module name, a `node:` built-in, or why it cannot load.
   */
  async gadgetImport(
    specifier: string,
  ): Promise<{ ok: true; module: string } | { ok: false; problem: PackageProblem }> {
    try {
      const resolved = await this.#resolve(GADGET, specifier, "import");
      if (resolved.kind === "fail") return { ok: false, problem: resolved.problem };
      if (resolved.kind === "builtin") return { ok: true, module: resolved.specifier };
      return { ok: true, module: this.#importTarget(resolved.pkg, resolved.file, GADGET) };
    } catch (error) {
      if (error instanceof PackageLoadError) return { ok: false, problem: error.problem };
      throw error;
    }
  }

  /** Makes every module the imports so far reach. */
  async complete(): Promise<{ ok: true } | { ok: false; problem: PackageProblem }> {
    try {
      for (let job = this.#queue.shift(); job; job = this.#queue.shift()) await job();
      return { ok: true };
    } catch (error) {
      if (error instanceof PackageLoadError) return { ok: false, problem: error.problem };
      throw error;
    }
  }

  #package(installPath: string): Promise<LoadedPackage> | undefined {
    const entry = this.#lock.packages[installPath];
    if (!entry) return undefined;
    let loaded = this.#packages.get(installPath);
    if (!loaded) {
      loaded = this.#source.files(entry).then((result) => {
        if (!result.ok) throw new PackageLoadError({ kind: result.kind, package: entry.name, message: result.message });
        const text = result.files.get("package.json");
        const parsed = text === undefined ? undefined : parseManifest(text);
        if (!parsed?.ok)
          throw new PackageLoadError({
            kind: "bad-package",
            package: entry.name,
            message: `Package ${label(entry)} has no readable package.json.`,
          });
        return {
          installPath,
          entry,
          files: result.files,
          manifest: parsed.value,
          typeModule: parsed.value.type === "module",
        };
      });
      this.#packages.set(installPath, loaded);
    }
    return loaded;
  }

  /** The install path of `name` as Node finds it from `from`: the nearest `node_modules` up the tree. */
  #find(from: string, name: string): string | undefined {
    let at = from;
    for (;;) {
      const candidate = at === "" ? `node_modules/${name}` : `${at}/node_modules/${name}`;
      if (this.#lock.packages[candidate]) return candidate;
      if (at === "") return undefined;
      const up = at.lastIndexOf("/node_modules/");
      at = up === -1 ? "" : at.slice(0, up);
    }
  }

  async #resolve(importer: Importer, specifier: string, kind: ImportKind): Promise<Resolved> {
    const from = importer.installPath === "" ? undefined : await this.#package(importer.installPath);
    const who = from ? `${from.installPath}/${importer.file}` : "the gadget";
    const fail = (kindOf: PackageErrorKind, message: string, pkg?: string): Resolved => ({
      kind: "fail",
      problem: { kind: kindOf, ...(pkg === undefined ? {} : { package: pkg }), message },
    });
    const fromEntry = (pkg: LoadedPackage, result: EntryResult, what: string): Resolved => {
      if (result.ok) return { kind: "file", pkg, file: result.path };
      if (result.reason === "native")
        return fail(
          "bad-package",
          `Package ${label(pkg.entry)} needs a native addon (${result.message.replace(" is a native addon", "")}): compiled Node addons cannot run in a Worker isolate. Use a package written in JavaScript or WebAssembly instead.`,
          pkg.entry.name,
        );
      return fail(
        result.reason === "missing-file" ? "bad-package" : "invalid",
        `Cannot load "${what}" (imported by ${who}): package ${label(pkg.entry)} — ${result.message}.`,
        pkg.entry.name,
      );
    };

    if (specifier.startsWith("./") || specifier.startsWith("../") || specifier === "." || specifier === "..") {
      if (!from) return fail("invalid", `"${specifier}" is not a package.`);
      const path = joinInside(dirname(importer.file), specifier);
      if (path === undefined)
        return fail("bad-package", `${who} imports "${specifier}", outside its package.`, from.entry.name);
      return fromEntry(from, probeFile(from.files, path), specifier);
    }
    if (specifier.startsWith("#")) {
      if (!from) return fail("invalid", `"${specifier}" is a package's private import; a gadget cannot use one.`);
      const mapped = resolvePackageImport(from.manifest, from.files, specifier, kind);
      if (mapped.ok && "bare" in mapped) return this.#resolve(importer, mapped.bare, kind);
      return fromEntry(from, mapped, specifier);
    }
    if (specifier.startsWith("node:")) {
      const builtin = builtinModule(specifier);
      if (builtin.kind === "builtin") return { kind: "builtin", specifier: builtin.specifier };
      return fail(
        "invalid",
        `${who} imports "${specifier}", a Node.js built-in that the Workers runtime does not provide.`,
        from?.entry.name,
      );
    }
    const bare = splitBareSpecifier(specifier);
    if (!bare)
      return fail("invalid", `"${specifier}" (imported by ${who}) is not a module specifier.`, from?.entry.name);
    const installPath = this.#find(importer.installPath, bare.name);
    if (installPath === undefined) {
      const builtin = builtinModule(specifier);
      if (builtin.kind === "builtin") return { kind: "builtin", specifier: builtin.specifier };
      if (builtin.kind === "missing")
        return fail(
          "invalid",
          `${who} imports "${specifier}", a Node.js built-in that the Workers runtime does not provide.`,
          from?.entry.name,
        );
      return fail(
        "invalid",
        `${who} imports "${bare.name}", which is not in ${LOCK_PATH} (${from ? `package ${label(from.entry)} does not depend on it` : "add it to the gadget's dependencies"}).`,
        from?.entry.name,
      );
    }
    const pkg = await this.#package(installPath);
    if (!pkg) return fail("invalid", `"${bare.name}" is not in ${LOCK_PATH}.`);
    return fromEntry(pkg, resolvePackageEntry(pkg.manifest, pkg.files, bare.subpath, kind), specifier);
  }

  #format(pkg: LoadedPackage, file: string): Format {
    const key = `${pkg.installPath}/${file}`;
    let format = this.#formats.get(key);
    if (!format) {
      format = formatOf(pkg, file);
      this.#formats.set(key, format);
    }
    return format;
  }

  /** The module an `import` of the file loads (a CommonJS file through its facade), planned once. */
  #importTarget(pkg: LoadedPackage, file: string, importer: Importer): string {
    const format = this.#format(pkg, file);
    const wrapped = this.#plan(pkg, file, format);
    if (format !== "cjs") return wrapped;
    const facade = `${pkg.installPath}/${file}${importer.nodeMode ? ".__esm_node.js" : ".__esm.js"}`;
    this.#claim(facade, pkg, () => this.#makeFacade(pkg, file, wrapped, facade, importer.nodeMode));
    return facade;
  }

  /** Plans the module of one file; answers its module name. */
  #plan(pkg: LoadedPackage, file: string, format: Format): string {
    const name = moduleNameOf(`${pkg.installPath}/${file}`);
    this.#claim(name, pkg, () => this.#make(pkg, file, format, name));
    return name;
  }

  #claim(name: string, pkg: LoadedPackage, make: () => Promise<void>): void {
    if (this.#planned.has(name)) return;
    if (this.#taken.has(name))
      throw new PackageLoadError({
        kind: "invalid",
        package: pkg.entry.name,
        message: `The gadget's own file "${name}" has the name of a file of package ${label(pkg.entry)}; rename the gadget's file.`,
      });
    this.#planned.add(name);
    this.#queue.push(make);
  }

  #emit(name: string, code: string, source: PackageModuleSource | undefined, pkg: LoadedPackage): void {
    this.#bytes += byteLength(code);
    if (this.#bytes > MAX_TREE_UNPACKED_BYTES)
      throw new PackageLoadError({
        kind: "too-large",
        package: pkg.entry.name,
        message: `The gadget's packages load more than ${MAX_TREE_UNPACKED_BYTES} bytes of code (the limit for one isolate, reached while loading ${label(pkg.entry)}). Import a smaller package or fewer of its files (a subpath like "pkg/part").`,
      });
    this.modules[name] = code;
    if (source) this.sources.set(name, source);
  }

  async #make(pkg: LoadedPackage, file: string, format: Format, name: string): Promise<void> {
    const text = pkg.files.get(file) ?? "";
    const path = `${pkg.installPath}/${file}`;
    if (format === "json") {
      const json = jsonModule(text);
      if (!json.ok)
        throw new PackageLoadError({
          kind: "bad-package",
          package: pkg.entry.name,
          message: `Package ${label(pkg.entry)}: ${file} is not valid JSON (${json.message}).`,
        });
      return this.#emit(name, json.code, undefined, pkg);
    }
    const importer: Importer = {
      installPath: pkg.installPath,
      file,
      nodeMode: pkg.typeModule || file.endsWith(".mjs"),
    };
    const packageMap = sourceMapOf(text, file, pkg.files, pkg.installPath);
    if (format === "esm") {
      const scan = scanImports(text);
      if (!scan.ok)
        throw new PackageLoadError({
          kind: "bad-package",
          package: pkg.entry.name,
          message: `Package ${label(pkg.entry)}: ${file} could not be read as a module (${scan.message}).`,
        });
      const targets = new Map<ModuleImport, string>();
      for (const entry of scan.imports) {
        const resolved = await this.#resolve(importer, entry.specifier, "import");
        if (resolved.kind === "builtin") targets.set(entry, resolved.specifier);
        else if (resolved.kind === "file")
          targets.set(entry, relativeSpecifier(name, this.#importTarget(resolved.pkg, resolved.file, importer)));
        // A dynamic import that cannot load is left to fail when (and if) it runs, as it would in Node.
        else if (!entry.quoted) throw new PackageLoadError(resolved.problem);
      }
      const rewritten = rewriteTracked(text, scan.imports, (entry) => targets.get(entry) ?? entry.specifier);
      return this.#emit(
        name,
        rewritten.code,
        { path, shifts: rewritten.shifts, ...(packageMap && { packageMap }) },
        pkg,
      );
    }
    const requires = requireSpecifiers(text);
    if (!requires.ok)
      throw new PackageLoadError({
        kind: "bad-package",
        package: pkg.entry.name,
        message: `Package ${label(pkg.entry)}: ${file} could not be read as CommonJS (${requires.message}).`,
      });
    const targets = new Map<string, RequireTarget>();
    for (const specifier of requires.specifiers) {
      const resolved = await this.#resolve(importer, specifier, "require");
      targets.set(specifier, this.#requireTarget(resolved, name));
    }
    const wrapped = wrapCommonJs(text, targets, path);
    this.#emit(
      name,
      wrapped.code,
      { path, shifts: [{ line: 1, from: wrapped.shift + 1, delta: wrapped.shift }], ...(packageMap && { packageMap }) },
      pkg,
    );
  }

  #requireTarget(resolved: Resolved, fromModule: string): RequireTarget {
    if (resolved.kind === "fail") return { kind: "fail", message: resolved.problem.message };
    if (resolved.kind === "builtin") return { kind: "builtin", specifier: resolved.specifier };
    const format = this.#format(resolved.pkg, resolved.file);
    const module = relativeSpecifier(fromModule, this.#plan(resolved.pkg, resolved.file, format));
    return { kind: format, module };
  }

  async #makeFacade(pkg: LoadedPackage, file: string, wrapped: string, name: string, nodeMode: boolean): Promise<void> {
    const names = await this.#exportNames(pkg, file, new Set());
    this.#emit(name, esmFacade(relativeSpecifier(name, wrapped), names, nodeMode), undefined, pkg);
  }

  /** Node's named exports of a CommonJS file: what cjs-module-lexer finds, through its re-exports. */
  async #exportNames(pkg: LoadedPackage, file: string, seen: Set<string>): Promise<string[]> {
    const key = `${pkg.installPath}/${file}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const text = pkg.files.get(file) ?? "";
    if (this.#format(pkg, file) === "esm") {
      try {
        const [, exports] = parseModule(text);
        return exports.flatMap((entry) => (entry.type === "reexport-all" ? [] : [entry.name]));
      } catch {
        return [];
      }
    }
    const found = commonJsExports(text);
    const names = [...found.exports];
    const importer: Importer = { installPath: pkg.installPath, file, nodeMode: false };
    for (const specifier of found.reexports) {
      const resolved = await this.#resolve(importer, specifier, "require");
      if (resolved.kind === "file") names.push(...(await this.#exportNames(resolved.pkg, resolved.file, seen)));
    }
    return names;
  }
}
