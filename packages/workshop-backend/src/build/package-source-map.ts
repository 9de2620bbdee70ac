/**
 * Positions in package modules back to the package's files: first undoing what the build moved
 * (the CommonJS wrapper's prefix, rewritten import specifiers), then through the package's own source
 * map when the file names one (`//# sourceMappingURL=` a `.map` file of the package, or a data URL).
 * Maps are parsed only when a stack needs one.
 */

import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { MAX_PACKAGE_SOURCE_MAP_CHARS } from "@gadgets/workshop-shared/limits";
import { dirname, joinInside } from "./module-paths.ts";
import type { PackageFiles } from "./package-entry.ts";

/** From generated column `from` (1-based) on `line`, code sits `delta` columns right of where the file has it. */
export interface ColumnShift {
  line: number;
  from: number;
  delta: number;
}

export type LazySourceMap = () => TraceMap | undefined;

const URL_MARKERS = ["//# sourceMappingURL=", "//@ sourceMappingURL="];
/** Longer comment lines are no source map reference: left unread. */
const MAX_URL_CHARS = 4 * 1024 * 1024;

/** The column in the file for generated `column` on `line`. */
export function unshift(shifts: readonly ColumnShift[], line: number, column: number): number {
  let delta = 0;
  for (const shift of shifts) {
    if (shift.line > line) break;
    if (shift.line === line && shift.from <= column) delta = shift.delta;
  }
  return Math.max(1, column - delta);
}

/** The `sourceMappingURL` of the file's last line, read with index scans (package text is untrusted). */
function mappingUrl(code: string): string | undefined {
  let end = code.length;
  while (
    end > 0 &&
    (code.charCodeAt(end - 1) === 10 || code.charCodeAt(end - 1) === 13 || code.charCodeAt(end - 1) === 32)
  )
    end--;
  const start = code.lastIndexOf("\n", end - 1) + 1;
  if (end - start > MAX_URL_CHARS) return undefined;
  const line = code.slice(start, end);
  const marker = URL_MARKERS.find((candidate) => line.startsWith(candidate));
  return marker ? line.slice(marker.length).trim() : undefined;
}

/** A URL path with its escapes undone; undefined for a malformed escape (`%E0%A4`), which names no file. */
function decodedUrlPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

function decodeDataUrl(url: string): string | undefined {
  const comma = url.indexOf(",");
  if (comma === -1 || !url.slice(0, comma).endsWith(";base64")) return undefined;
  try {
    const bytes = Uint8Array.from(atob(url.slice(comma + 1)), (char) => char.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The package's source map of `file` (a path inside the package at `installPath`), as a reader that
 * parses it once on first use; undefined when the file names none the package has. Its sources are
 * named from the package (`node_modules/zod/src/types.ts`); one outside the package is not used.
 */
export function sourceMapOf(
  code: string,
  file: string,
  files: PackageFiles,
  installPath: string,
): LazySourceMap | undefined {
  const url = mappingUrl(code);
  if (!url) return undefined;
  let text: string | undefined;
  let mapFile = file;
  if (url.startsWith("data:")) text = decodeDataUrl(url);
  else {
    const urlPath = decodedUrlPath(url.split("?")[0] ?? "");
    const path = urlPath === undefined ? undefined : joinInside(dirname(file), urlPath);
    if (path !== undefined) {
      text = files.get(path);
      mapFile = path;
    }
  }
  if (text === undefined || text.length > MAX_PACKAGE_SOURCE_MAP_CHARS) return undefined;
  const mapText = text;
  let parsed: TraceMap | null | undefined;
  return () => {
    if (parsed === undefined) {
      try {
        // A path-only URL: the map's sources resolve against it, so `../src/x.ts` stays inside the tree.
        parsed = new TraceMap(mapText, `/${installPath}/${mapFile}`);
      } catch {
        parsed = null;
      }
    }
    return parsed ?? undefined;
  };
}

/** A position of the package's file, through its source map, when the map covers it. */
export function throughPackageMap(
  map: TraceMap,
  installPath: string,
  line: number,
  column: number,
): { path: string; line: number; column: number } | undefined {
  const original = originalPositionFor(map, { line, column: Math.max(0, column - 1) });
  if (original.line === null || original.source === null) return undefined;
  const prefix = `/${installPath}/`;
  if (!original.source.startsWith(prefix)) return undefined;
  return { path: original.source.slice(1), line: original.line, column: original.column + 1 };
}
