/**
 * Whether a path below a gadget folder can be written or removed without leaving the folder: no part of
 * it — the last included — is a symbolic link. A cloned folder may hold links anywhere (node_modules/@x
 * pointing at `/`, a gitignored gadget-env.d.ts pointing at ~/.bashrc), and the folder reader skips
 * ignored entries before it looks at links, so every write and removal the CLI makes asks this first.
 */

import { lstatSync } from "node:fs";
import { join } from "node:path";

export function linkFreePath(root: string, relative: string): boolean {
  let at = root;
  for (const part of relative.split("/")) {
    at = join(at, part);
    try {
      if (lstatSync(at).isSymbolicLink()) return false;
    } catch {
      // Not there yet: nothing below it exists either, and what is made there is made as a real folder.
      return true;
    }
  }
  return true;
}
