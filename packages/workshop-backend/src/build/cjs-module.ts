/**
 * CommonJS files of packages, made into ES modules an isolate loads as text. workerd's own CommonJS
 * modules need a module object instead of a string (the run protocol carries text), resolve bare
 * `require("x")` only relative to the requiring file, and give ESM importers no named exports; so each
 * file is wrapped instead, the way esbuild bundles one for a Worker (strict mode included):
 *
 * - the file's code runs inside `function (exports, require, module, __filename, __dirname)`, on the
 *   first line of the module so every other line keeps its number (a frame's column on line 1 is
 *   shifted back by the prefix's length);
 * - it runs when first required, as in Node: the module exports `__load`, which runs it once;
 * - each literal `require("x")` was resolved by the build: the module imports its target up front
 *   (importing a wrapped file runs nothing) and `require` hands it over by specifier; a specifier that
 *   cannot load here throws, when required, an error that names it and why (`try { require(…) }` still works);
 * - an ES module importing it gets a facade: `default` is `module.exports` and the named exports are
 *   those cjs-module-lexer (Node's own detector) finds.
 */

import { tokenizer } from "acorn";
import { parse as lexCommonJs } from "cjs-module-lexer/lexer.js";

/** How a wrapped file's `require(specifier)` gets its value. */
export type RequireTarget =
  /** Another wrapped file (its `__load`). */
  | { kind: "cjs"; module: string }
  /** An ES module: require(esm) answers its namespace, as Node 22 does. */
  | { kind: "esm"; module: string }
  /** A JSON file, loaded as a module whose default export is the value. */
  | { kind: "json"; module: string }
  /** A runtime built-in (`node:buffer`): its default export, which is what Node's require answers. */
  | { kind: "builtin"; specifier: string }
  /** Cannot load here: requiring it throws this. */
  | { kind: "fail"; message: string };

export const LOAD_EXPORT = "__load";

/**
 * The string literals of `require("…")` calls, once each, in order. acorn's tokenizer knows strings,
 * templates, comments and regular expressions, so text that only looks like a call is not taken;
 * `x.require("…")` is a method, not the module's require, and is skipped. One linear pass.
 */
export function requireSpecifiers(code: string): { ok: true; specifiers: string[] } | { ok: false; message: string } {
  const found = new Set<string>();
  // The three tokens before this one, as labels (`name:require` for names).
  let third = "";
  let second = "";
  let first = "";
  try {
    for (const token of tokenizer(code, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowHashBang: true,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    })) {
      const label = token.type.label;
      // acorn's tokens carry their value, though its types leave it out.
      const value = (token as { value?: unknown }).value;
      if (label === "string" && first === "(" && second === "name:require" && third !== "." && third !== "?.")
        found.add(String(value));
      third = second;
      second = first;
      first = label === "name" ? `name:${String(value)}` : label;
    }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  return { ok: true, specifiers: [...found] };
}

/** The named exports Node would give an ES module importing this file, and the files it re-exports. */
export function commonJsExports(code: string): { exports: string[]; reexports: string[] } {
  try {
    const { exports, reexports } = lexCommonJs(code);
    return { exports, reexports };
  } catch {
    // Node gives such a file no named exports either: `default` still works.
    return { exports: [], reexports: [] };
  }
}

function importFor(target: RequireTarget, id: string): string {
  switch (target.kind) {
    case "cjs":
      return `import{${LOAD_EXPORT} as ${id}}from${JSON.stringify(target.module)};`;
    case "esm":
      return `import*as ${id} from${JSON.stringify(target.module)};`;
    case "json":
      return `import ${id} from${JSON.stringify(target.module)};`;
    case "builtin":
      return `import*as ${id} from${JSON.stringify(target.specifier)};`;
    case "fail":
      return "";
  }
}

function valueFor(target: RequireTarget, id: string): string {
  switch (target.kind) {
    case "cjs":
      return id;
    case "esm":
    case "json":
      return `()=>${id}`;
    case "builtin":
      return `()=>${id}.default??${id}`;
    case "fail":
      return `()=>__workshop_missing(${JSON.stringify(target.message)})`;
  }
}

/**
 * The ES module text of a CommonJS file. `targets` holds what each of its literal `require` specifiers
 * loads; `filename` is the file's path (`node_modules/a/index.js`), its `__filename` under `/`.
 * `shift` is how many characters the code moved right on its first line.
 */
export function wrapCommonJs(
  code: string,
  targets: ReadonlyMap<string, RequireTarget>,
  filename: string,
): { code: string; shift: number } {
  let imports = "";
  const entries: string[] = [];
  let index = 0;
  for (const [specifier, target] of targets) {
    const id = `__workshop_d${index++}`;
    imports += importFor(target, id);
    entries.push(`[${JSON.stringify(specifier)},${valueFor(target, id)}]`);
  }
  const dir = filename.includes("/") ? filename.slice(0, filename.lastIndexOf("/")) : "";
  const prefix =
    `${imports}const __workshop_t=new Map([${entries.join(",")}]);` +
    "function __workshop_missing(m){const e=new Error(m);e.code='MODULE_NOT_FOUND';throw e}" +
    `let __workshop_m;export function ${LOAD_EXPORT}(){if(__workshop_m)return __workshop_m.exports;` +
    "const m=__workshop_m={exports:{}};" +
    "const r=(s)=>{const t=__workshop_t.get(s);return t?t():__workshop_missing(" +
    `"Cannot find module '"+s+"' required by ${JSON.stringify(filename).slice(1, -1)}: only require() calls with a string literal are loaded")};` +
    "(function(exports,require,module,__filename,__dirname){";
  const suffix = `\n}).call(m.exports,m.exports,r,m,${JSON.stringify(`/${filename}`)},${JSON.stringify(`/${dir}`)});return m.exports}\n`;
  // A hashbang is only allowed at the very start of a file; as a comment it keeps its length.
  const body = code.startsWith("#!") ? `//${code.slice(2)}` : code;
  return { code: prefix + body + suffix, shift: prefix.length };
}

/** A module's export names must be well-formed UTF-16: a lone surrogate from the lexer is left out. */
const isExportName = (name: string) => name !== "default" && encodeURIComponentSafe(name);

function encodeURIComponentSafe(name: string): boolean {
  try {
    encodeURIComponent(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The ES module an `import` of a wrapped file gets. `nodeMode` (the importer is a `.mjs` file or in a
 * `"type": "module"` package) makes `default` always `module.exports`, as Node does; otherwise a file
 * marked `__esModule` (compiled from ESM by TypeScript or Babel) gives its `exports.default`, as
 * esbuild and wrangler do.
 */
export function esmFacade(wrappedModule: string, names: readonly string[], nodeMode: boolean): string {
  const unique = [...new Set(names)].filter(isExportName);
  const bindings = unique.map((name, i) => `const __workshop_n${i}=__workshop_e[${JSON.stringify(name)}];`).join("");
  const list = unique.map((name, i) => `__workshop_n${i} as ${JSON.stringify(name)}`).join(",");
  const fallback = nodeMode
    ? "__workshop_e"
    : "__workshop_e!=null&&__workshop_e.__esModule?__workshop_e.default:__workshop_e";
  return (
    `import{${LOAD_EXPORT}}from${JSON.stringify(wrappedModule)};const __workshop_e=${LOAD_EXPORT}();` +
    `export default ${fallback};${bindings}${unique.length > 0 ? `export{${list}};` : ""}\n`
  );
}

/** A JSON file as an ES module (text modules of other types are refused by the isolate's loader). */
export function jsonModule(text: string): { ok: true; code: string } | { ok: false; message: string } {
  try {
    JSON.parse(text);
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  // Parsed at load, not pasted as a literal: in JS an object literal's `__proto__` key sets the prototype.
  return { ok: true, code: `export default JSON.parse(${JSON.stringify(text)});\n` };
}
