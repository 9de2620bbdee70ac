/**
 * Packs the client libraries into the app's static files, so every Workshop serves what a backend
 * anywhere installs with `npm i <workshop>/packages/<name>-<version>.tgz` (README, From a backend).
 * Runs before the app's build, after theirs (turbo's `^build`), with `pnpm pack` (which writes the
 * manifest's `publishConfig.exports` in place of the sources' exports), into `public/packages/`: Vite
 * copies `public/` into every build of `dist`, so any later `vite build` keeps serving them.
 */

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The packages a backend outside this repository installs; each bundles its dependencies. */
const LIBRARIES = ["workshop-shared", "backend-utils"];

const destination = fileURLToPath(new URL("public/packages/", import.meta.url));
// The pnpm running this build: turbo starts it through `pnpm run`, which names itself here.
const pnpm = process.env.npm_execpath;
if (!pnpm?.includes("pnpm"))
  throw new Error("pack-libraries runs under pnpm (`pnpm build`): npm_execpath does not name a pnpm.");

// pnpm is a native binary or a script for Node, depending on how it was installed.
const [command, ...prefix] = /\.c?js$/.test(pnpm) ? [process.execPath, pnpm] : [pnpm];

rmSync(destination, { recursive: true, force: true });
mkdirSync(destination, { recursive: true });
for (const library of LIBRARIES) {
  execFileSync(command, [...prefix, "pack", "--pack-destination", destination], {
    cwd: fileURLToPath(new URL(`../../packages/${library}/`, import.meta.url)),
    stdio: ["ignore", "ignore", "inherit"],
  });
}
