#!/usr/bin/env node
// The `gadgets` command. In a checkout of the Workshop repository it runs the TypeScript sources (Node
// strips their types), so an edit takes effect at once; an installed package carries only the bundle
// built by scripts/build.ts (Node will not strip types under node_modules).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const [major] = process.versions.node.split(".").map(Number);
const sources = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const fromSources = existsSync(sources);

if (major < 22 || (fromSources && !process.features.typescript)) {
  process.stderr.write(
    `gadgets needs Node.js 22 or newer${fromSources ? " (22.18+ to run from the sources)" : ""}; this is ${process.version} (${process.execPath}).\n` +
      "Run it through your package manager (npx gadgets, pnpm exec gadgets) with Node 22 first on PATH, or install Node 22.\n",
  );
  process.exit(2);
}

await import(fromSources ? "../src/cli.ts" : "../dist/gadgets.js");
