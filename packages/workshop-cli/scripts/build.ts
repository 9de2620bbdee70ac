/**
 * Bundles the command line into one ES module, `dist/gadgets.js`, with its dependencies inside: an
 * installed package has no TypeScript to strip (Node refuses to under node_modules) and no workspace
 * packages to resolve. `bin/gadgets.js` loads it when the sources are absent.
 */

import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));

await build({
  entryPoints: [`${packageRoot}src/cli.ts`],
  outfile: `${packageRoot}dist/gadgets.js`,
  bundle: true,
  platform: "node",
  target: "node22",
  format: "esm",
  // CommonJS dependencies bundled into an ES module still call require for Node's own modules.
  banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  legalComments: "inline",
  logLevel: "warning",
});
