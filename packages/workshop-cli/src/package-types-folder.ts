/**
 * The declarations of a folder's locked packages, where the user's editor finds them: `node_modules/<name>/`
 * holding only the package's `.d.ts` files and package.json (so `exports` type conditions and `types`
 * resolve as they would after an install), taken from the Workshop (`packageTypes`) for exactly the lock's
 * versions. `node_modules` is never uploaded. A package folder someone else put there (a real install) is
 * left alone: `node_modules/.gadget-types.json` lists the folders this module wrote, and only those are
 * replaced or removed.
 */

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { PackageTypeFiles } from "@gadgets/workshop-shared";
import { isPackageName } from "@gadgets/workshop-shared/schemas";
import { linkFreePath } from "./link-free-path.ts";

export const TYPES_MARKER = "node_modules/.gadget-types.json";

interface Marker {
  /** sha256 of the lock the declarations were written for. */
  lock: string;
  /** Top-level package folders written ("fx-zod", "@types/fx-untyped"). */
  packages: string[];
}

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

function readMarker(root: string): Marker | undefined {
  try {
    const marker = JSON.parse(readFileSync(join(root, TYPES_MARKER), "utf8")) as Marker;
    if (typeof marker.lock !== "string" || !Array.isArray(marker.packages)) return undefined;
    // The folders it names are removed: a marker that came with the folder (a cloned repository) could
    // name "../.." — only package names, which stay inside node_modules/, are taken.
    return {
      lock: marker.lock,
      packages: marker.packages.filter((name) => typeof name === "string" && isPackageName(name)),
    };
  } catch {
    return undefined;
  }
}

/** The top-level package folder of a declaration path, or undefined for a path that is not a safe one. */
export function packageFolderOf(path: string): string | undefined {
  const parts = path.split("/");
  // Paths come from package tarballs: anything but plain names under node_modules/ is refused here too.
  if (
    parts[0] !== "node_modules" ||
    parts.some((part) => part === "" || part === "." || part === ".." || part.includes("\\"))
  )
    return undefined;
  const scoped = parts[1]?.startsWith("@");
  const depth = scoped ? 3 : 2;
  return parts.length > depth ? parts.slice(1, depth).join("/") : undefined;
}

/** Whether the declarations on disk were written for this lock (so nothing needs asking). */
export function typesAreCurrent(root: string, lock: string): boolean {
  return readMarker(root)?.lock === digest(lock);
}

/**
 * Replaces the declarations this module wrote before with `types`, for `lock`; no lock: removes them.
 * Answers the package folders written.
 */
export function writePackageTypes(root: string, lock: string | undefined, types: PackageTypeFiles): string[] {
  if (!linkFreePath(root, TYPES_MARKER))
    throw new Error(
      "node_modules (or its .gadget-types.json) is a symbolic link: declarations are written only into a real node_modules folder inside the gadget's folder",
    );
  const before = readMarker(root);
  for (const folder of before?.packages ?? []) {
    const path = `node_modules/${folder}`;
    // A folder reached through a link (node_modules/@x → /) is not one this module wrote.
    if (linkFreePath(root, path)) rmSync(join(root, path), { recursive: true, force: true });
  }
  if (lock === undefined) {
    rmSync(join(root, TYPES_MARKER), { force: true });
    return [];
  }
  const ours = new Set<string>();
  const theirs = new Set<string>();
  for (const file of types.files) {
    const folder = packageFolderOf(file.path);
    if (!folder || theirs.has(folder) || !linkFreePath(root, file.path)) continue;
    if (!ours.has(folder)) {
      if (existsSync(join(root, "node_modules", folder))) {
        theirs.add(folder);
        continue;
      }
      ours.add(folder);
    }
    const path = join(root, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  const marker: Marker = { lock: digest(lock), packages: [...ours].sort() };
  mkdirSync(join(root, "node_modules"), { recursive: true });
  writeFileSync(join(root, TYPES_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  return marker.packages;
}
