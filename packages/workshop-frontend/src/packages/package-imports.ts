/**
 * Imports of npm packages that gadget.json does not declare, with where they are, for the editor's
 * diagnostic and quick fix. A line scan, not a parser: it only places a hint (the build, which reads
 * imports with a real lexer, stays the judge), and a gadget's few files make it cheap on every change.
 */

import type { GadgetFile } from "@gadgets/workshop-shared";
import { packageOfSpecifier } from "@gadgets/workshop-shared/dependency-lock";
import { isPackageName } from "@gadgets/workshop-shared/schemas";

export interface UndeclaredImport {
  path: string;
  name: string;
  /** 1-based, the specifier's quotes included. */
  line: number;
  startColumn: number;
  endColumn: number;
}

// Node's built-in modules, which workerd serves under their bare names too: not packages to declare.
const NODE_BUILTINS = new Set(
  "assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain events fs http http2 https inspector module net os path perf_hooks process punycode querystring readline repl stream string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib".split(
    " ",
  ),
);

// `from "x"`, `import "x"`, `import("x")`, `require("x")`, `export … from "x"`; each quote pair on one line.
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(["'])([^"'\n]{1,300})\1/g;
const CODE_FILE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/** Every import of a package not in `dependencies`, file by file, in order. */
export function undeclaredImports(
  files: readonly GadgetFile[],
  dependencies: Readonly<Record<string, string>>,
): UndeclaredImport[] {
  const found: UndeclaredImport[] = [];
  for (const file of files) {
    if (!CODE_FILE.test(file.path) || file.path.endsWith(".d.ts")) continue;
    const lines = file.content.split("\n");
    lines.forEach((text, index) => {
      if (text.trimStart().startsWith("//")) return;
      for (const match of text.matchAll(SPECIFIER)) {
        const specifier = match[2] ?? "";
        const name = packageOfSpecifier(specifier);
        if (!name || !isPackageName(name) || NODE_BUILTINS.has(name.split("/")[0] ?? "")) continue;
        if (Object.hasOwn(dependencies, name)) continue;
        // The match ends with the quoted specifier.
        const quoteAt = (match.index ?? 0) + match[0].length - specifier.length - 2;
        found.push({
          path: file.path,
          name,
          line: index + 1,
          startColumn: quoteAt + 1,
          endColumn: quoteAt + specifier.length + 3,
        });
      }
    });
  }
  return found;
}
