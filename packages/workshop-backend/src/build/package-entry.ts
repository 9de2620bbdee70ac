/**
 * Which file of a package a specifier means, without a file system: the package's files are a map.
 * `exports` and `imports` are matched by resolve.exports (the resolver jest uses: conditions, `*`
 * patterns, arrays, null targets) with the conditions wrangler gives esbuild for a Worker —
 * `workerd`, `worker`, `browser` — plus `import` or `require` by how the module asks, and `default`.
 * As in Node and esbuild, the first of those the package lists wins (the package's key order decides,
 * not this list). Without `exports`: the `browser` (a string), `module` and `main` fields, as esbuild's
 * browser platform reads them (`require` asks `main` before `module`), then extension and index probing.
 */

import { exports as matchExports, imports as matchImports } from "resolve.exports";
import { joinInside } from "./module-paths.ts";

export type PackageFiles = ReadonlyMap<string, string>;
export type ImportKind = "import" | "require";

/** The fields of package.json the loader reads. */
export interface PackageManifest {
  name?: unknown;
  version?: unknown;
  type?: unknown;
  main?: unknown;
  module?: unknown;
  browser?: unknown;
  exports?: unknown;
  imports?: unknown;
}

/** Conditions a Worker build matches, as wrangler sets them for esbuild (`getBuildConditions`). */
export const WORKER_CONDITIONS = ["workerd", "worker", "browser"] as const;

export type EntryResult =
  | { ok: true; path: string }
  | { ok: false; reason: "not-exported" | "missing-file" | "native"; message: string };

const PROBE_EXTENSIONS = [".js", ".mjs", ".cjs", ".json"];

/** `@scope/name/sub/path` → name `@scope/name`, subpath `./sub/path` (`.` for the package itself). */
export function splitBareSpecifier(specifier: string): { name: string; subpath: string } | undefined {
  const parts = specifier.split("/");
  const nameParts = specifier.startsWith("@") ? 2 : 1;
  if (parts.length < nameParts || parts.slice(0, nameParts).some((part) => part === "")) return undefined;
  const name = parts.slice(0, nameParts).join("/");
  const rest = parts.slice(nameParts);
  return { name, subpath: rest.length === 0 ? "." : `./${rest.join("/")}` };
}

/**
 * The file `path` means as CommonJS would look for it: itself, with an extension added, or its
 * folder's index (or the folder's own package.json `main`). A `.node` file is a native addon: the
 * store keeps no binary files, so it is recognised by name.
 */
export function probeFile(files: PackageFiles, path: string, visited: readonly string[] = []): EntryResult {
  if (path.endsWith(".node")) return { ok: false, reason: "native", message: `"${path}" is a native addon` };
  if (files.has(path)) return { ok: true, path };
  for (const extension of PROBE_EXTENSIONS)
    if (files.has(path + extension)) return { ok: true, path: path + extension };
  const prefix = path === "" ? "" : `${path}/`;
  const folderManifest = files.get(`${prefix}package.json`);
  if (path !== "" && folderManifest !== undefined) {
    const main = parseManifest(folderManifest);
    if (main.ok && typeof main.value.main === "string") {
      const inner = joinInside(path, main.value.main);
      // Folders whose package.json `main`s name each other would otherwise recurse without end.
      if (inner !== undefined && inner !== path && !visited.includes(inner)) {
        const found = probeFile(files, inner, [...visited, path]);
        if (found.ok) return found;
      }
    }
  }
  for (const extension of PROBE_EXTENSIONS)
    if (files.has(`${prefix}index${extension}`)) return { ok: true, path: `${prefix}index${extension}` };
  return { ok: false, reason: "missing-file", message: `there is no file "${path || "index.js"}"` };
}

export function parseManifest(text: string): { ok: true; value: PackageManifest } | { ok: false } {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? { ok: true, value: value as PackageManifest }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}

function conditionsFor(kind: ImportKind) {
  return { conditions: [...WORKER_CONDITIONS, kind], unsafe: true } as const;
}

/** The first target of an `exports`/`imports` match that is a file of the package. */
function firstFile(files: PackageFiles, targets: readonly string[], field: string, subpath: string): EntryResult {
  let last: EntryResult | undefined;
  for (const target of targets) {
    const path = joinInside("", target);
    if (path === undefined) continue;
    if (path.endsWith(".node")) return { ok: false, reason: "native", message: `"${path}" is a native addon` };
    if (files.has(path)) return { ok: true, path };
    last = {
      ok: false,
      reason: "missing-file",
      message: `its package.json "${field}" maps "${subpath}" to "${target}", a file the package does not contain`,
    };
  }
  return (
    last ?? { ok: false, reason: "not-exported", message: `its package.json "${field}" maps "${subpath}" nowhere` }
  );
}

function exportedSubpaths(exportsField: unknown): string {
  if (exportsField === null || typeof exportsField !== "object" || Array.isArray(exportsField)) return '"."';
  const keys = Object.keys(exportsField).filter((key) => key.startsWith("."));
  const shown = (keys.length === 0 ? ["."] : keys).slice(0, 12).map((key) => JSON.stringify(key));
  return shown.join(", ") + (keys.length > 12 ? ", …" : "");
}

/** The file of a package that `subpath` (`.` or `./mini`) names, for an `import` or a `require`. */
export function resolvePackageEntry(
  manifest: PackageManifest,
  files: PackageFiles,
  subpath: string,
  kind: ImportKind,
): EntryResult {
  if (manifest.exports !== undefined && manifest.exports !== null) {
    let targets: string[] | undefined;
    try {
      targets = matchExports(manifest as Parameters<typeof matchExports>[0], subpath, conditionsFor(kind)) || undefined;
    } catch {
      targets = undefined;
    }
    if (!targets || targets.length === 0)
      return {
        ok: false,
        reason: "not-exported",
        message: `it does not export "${subpath}" for ${kind === "import" ? "import" : "require()"} in a Worker (its package.json "exports" lists ${exportedSubpaths(manifest.exports)})`,
      };
    return firstFile(files, targets, "exports", subpath);
  }
  if (subpath !== ".") {
    const path = joinInside("", subpath);
    if (path === undefined) return { ok: false, reason: "not-exported", message: `"${subpath}" leaves the package` };
    return probeFile(files, path);
  }
  const fields =
    kind === "import" ? (["browser", "module", "main"] as const) : (["browser", "main", "module"] as const);
  for (const field of fields) {
    const value = manifest[field];
    if (typeof value !== "string" || value === "") continue;
    const path = joinInside("", value);
    if (path === undefined) continue;
    const found = probeFile(files, path);
    if (found.ok || found.reason === "native") return found;
    // A `browser` or `module` field pointing nowhere is skipped as esbuild does; `main` is the last word.
    if (field === "main")
      return {
        ok: false,
        reason: "missing-file",
        message: `its package.json "main" is "${value}", a file the package does not contain`,
      };
  }
  const index = probeFile(files, "");
  return index.ok ? index : { ok: false, reason: "missing-file", message: 'it has no "main", "exports" or index.js' };
}

/**
 * A `#name` specifier through the package's `imports`: a file of the package (`{ path }`) or a bare
 * specifier to resolve from the package (`{ bare }`).
 */
export function resolvePackageImport(
  manifest: PackageManifest,
  files: PackageFiles,
  specifier: string,
  kind: ImportKind,
): EntryResult | { ok: true; bare: string } {
  let targets: string[] | undefined;
  try {
    targets = matchImports(manifest as Parameters<typeof matchImports>[0], specifier, conditionsFor(kind)) || undefined;
  } catch {
    targets = undefined;
  }
  if (!targets || targets.length === 0)
    return { ok: false, reason: "not-exported", message: `its package.json "imports" does not map "${specifier}"` };
  const [first] = targets;
  // A target is a file of the package or another package; one naming a private import again (`#a` →
  // `#a`) would be looked up without end, and Node refuses it too.
  if (first?.startsWith("#"))
    return {
      ok: false,
      reason: "missing-file",
      message: `its package.json "imports" maps "${specifier}" to "${first}", another private import`,
    };
  if (first !== undefined && !first.startsWith("./")) return { ok: true, bare: first };
  return firstFile(files, targets, "imports", specifier);
}
