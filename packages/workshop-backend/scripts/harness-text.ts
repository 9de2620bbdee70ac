/**
 * Bundles the harness (`src/isolate/harness/`) into the text the Worker ships into every isolate: the
 * isolate loads modules only as strings. Two modules, each bundled on its own: the console module, and
 * the harness module, which imports the console module and then the gadget's entry (both stay
 * imports), so the console is bound before any gadget code runs. The result is a TypeScript module of
 * string constants, committed, so the Worker bundles the same way under wrangler, the local host and tests.
 */

import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { parse } from "es-module-lexer/js";
import { build, type Plugin } from "esbuild";
import { GADGET_ENTRY_SPECIFIER, HARNESS_CONSOLE_MODULE, HARNESS_ENTRYPOINT } from "../src/isolate/harness/contract.ts";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));

/** Where the generated module lives. */
export const HARNESS_TEXT_PATH = `${packageRoot}src/isolate/harness-text.generated.ts`;
export const REGENERATE_COMMAND = "pnpm --filter @gadgets/workshop-backend bundle-harness";

/** The harness module imports the console module as the isolate names it, not as source. */
const consoleModuleAsImport: Plugin = {
  name: "console-module-as-import",
  setup(bundler) {
    bundler.onResolve({ filter: /^\.\/console-module\.ts$/ }, () => ({
      path: `./${HARNESS_CONSOLE_MODULE}`,
      external: true,
    }));
  },
};

async function bundle(entry: string, plugins: Plugin[]): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: packageRoot,
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2023",
    external: ["cloudflare:*", "node:*", GADGET_ENTRY_SPECIFIER],
    plugins,
    minify: false,
    sourcemap: false,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`Bundling ${entry} produced no output.`);
  return output.text;
}

/** Checked on the bundle as the isolate will load it, so a wrong bundle is never written. */
function checkHarnessModule(text: string): void {
  const [imports, exports] = parse(text);
  const order = imports.map((entry) => entry.specifier);
  const consoleAt = order.indexOf(`./${HARNESS_CONSOLE_MODULE}`);
  const entryAt = order.indexOf(GADGET_ENTRY_SPECIFIER);
  if (consoleAt === -1 || entryAt === -1 || consoleAt > entryAt)
    throw new Error(
      `The harness module must import the console module before the gadget's entry; it imports ${order.join(", ")}.`,
    );
  if (text.split(JSON.stringify(GADGET_ENTRY_SPECIFIER)).length !== 2)
    throw new Error(`The harness module must name "${GADGET_ENTRY_SPECIFIER}" exactly once.`);
  if (!exports.some((entry) => "name" in entry && entry.name === HARNESS_ENTRYPOINT))
    throw new Error(`The harness module does not export ${HARNESS_ENTRYPOINT}.`);
}

/** Control characters (the event line marker) as escapes: nothing invisible in a committed file. */
function escapeControlCharacters(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    const invisible = (code < 0x20 && char !== "\n" && char !== "\t") || code === 0x7f;
    out += invisible ? `\\u${code.toString(16).padStart(4, "0")}` : char;
  }
  return out;
}

/** The text as a template literal: readable in review, and diffs show which lines changed. */
const templateLiteral = (text: string) =>
  `\`${escapeControlCharacters(text.replaceAll("\\", "\\\\").replaceAll("`", "\\`").replaceAll("${", "\\${"))}\``;

/** The generated module's full text. */
export async function generateHarnessText(): Promise<string> {
  const consoleModule = await bundle("src/isolate/harness/console-module.ts", []);
  const harnessModule = await bundle("src/isolate/harness/harness-module.ts", [consoleModuleAsImport]);
  checkHarnessModule(harnessModule);
  const digest = createHash("sha256").update(consoleModule).update("\0").update(harnessModule).digest("hex");
  return `// Generated from src/isolate/harness/ by \`${REGENERATE_COMMAND}\`: do not edit.
// A unit test (scripts/harness-text.test.ts) fails while it is stale.

/** \`${HARNESS_CONSOLE_MODULE}\`: console-module.ts and what it imports. */
export const CONSOLE_MODULE_TEXT = ${templateLiteral(consoleModule)};

/** The isolate's main module: harness-module.ts and what it imports; the gadget's entry is "${GADGET_ENTRY_SPECIFIER}". */
export const HARNESS_MODULE_TEXT = ${templateLiteral(harnessModule)};

/** SHA-256 of both texts: part of every gadget's content hash, so no isolate built with another harness is reused. */
export const HARNESS_DIGEST = "${digest}";
`;
}
