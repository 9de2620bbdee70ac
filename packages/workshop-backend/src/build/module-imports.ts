/**
 * Finds the module specifiers of a gadget module's imports with es-module-lexer, the lexer bundlers
 * use: it skips comments, strings and templates, so nothing that only looks like an import counts,
 * and it runs in one pass. Its asm.js build is used because the Workers runtime refuses to compile
 * WebAssembly from bytes.
 */

import { parse } from "es-module-lexer/js";

export interface ModuleImport {
  /** The module specifier, decoded (`./util`). */
  specifier: string;
  /** Where the specifier's text starts and ends in the code. */
  start: number;
  end: number;
  /** Whether `start..end` includes the quotes (a dynamic `import("…")`) or not (a static import). */
  quoted: boolean;
}

export type ImportScan = { ok: true; imports: ModuleImport[] } | { ok: false; offset: number; message: string };

// The asm.js build is ready once loaded (its `init` is an already-resolved promise), so no await here.

/**
 * The literal imports of JavaScript module code (static imports, re-exports and `import("…")` with a
 * string literal). Computed `import(expression)` is left alone: it can reach only the isolate's own
 * modules at run time.
 */
export function scanImports(code: string): ImportScan {
  let found: ReturnType<typeof parse>[0];
  try {
    [found] = parse(code);
  } catch (error) {
    const offset = (error as { idx?: number }).idx ?? 0;
    return { ok: false, offset, message: "the module could not be read for its imports (a syntax error?)" };
  }
  const imports: ModuleImport[] = [];
  for (const entry of found) {
    if (entry.type === "static" || entry.type === "reexport-star")
      imports.push({ specifier: entry.specifier, start: entry.start, end: entry.end, quoted: false });
    else if (entry.type === "dynamic" && entry.specifier !== undefined && !entry.glob)
      imports.push({ specifier: entry.specifier, start: entry.start, end: entry.end, quoted: true });
  }
  return { ok: true, imports };
}

/** The code with each import's specifier replaced by `replace(import)`; imports must be in code order. */
export function rewriteImports(
  code: string,
  imports: readonly ModuleImport[],
  replace: (entry: ModuleImport) => string,
): string {
  let out = "";
  let at = 0;
  for (const entry of imports) {
    const text = replace(entry);
    out += code.slice(at, entry.start) + (entry.quoted ? JSON.stringify(text) : text);
    at = entry.end;
  }
  return out + code.slice(at);
}

/** 1-based line and column of `offset` in `code`. */
export function positionOf(code: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < code.length; i++) {
    if (code.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
