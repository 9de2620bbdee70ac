/**
 * Files of a locked tree for the editor: the declarations of every package (its package.json files and
 * `.d.ts`/`.d.mts`/`.d.cts`, an `@types/…` package's included), and one file by its path in the tree.
 * All of a package's declarations are sent, not only those its entry points reach: TypeScript follows
 * their imports itself, and a superset costs only bytes, which MAX_PACKAGE_TYPES_BYTES caps (the
 * gadget's own dependencies first, so a cut drops the deepest packages).
 */

import type { GadgetLock, LockedPackage, PackageTypeFiles } from "@gadgets/workshop-shared/api";
import { MAX_PACKAGE_TYPES_BYTES } from "@gadgets/workshop-shared/limits";
import { isDeclarationFile } from "./declarations.ts";
import type { StoredFiles } from "./stored-packages.ts";

export interface LockFileSource {
  files(entry: LockedPackage): Promise<Pick<StoredFiles, "files">>;
}

const byteLength = (text: string) => new TextEncoder().encode(text).byteLength;

/** Install paths, the gadget's own dependencies first, then by depth and name. */
function editorOrder(lock: GadgetLock): string[] {
  const depth = (path: string) => path.split("/node_modules/").length;
  return Object.keys(lock.packages).sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0));
}

export async function lockTypes(
  source: LockFileSource,
  lock: GadgetLock,
  maxBytes = MAX_PACKAGE_TYPES_BYTES,
): Promise<PackageTypeFiles> {
  const out: PackageTypeFiles["files"] = [];
  let total = 0;
  for (const path of editorOrder(lock)) {
    const { files } = await source.files(lock.packages[path] as LockedPackage);
    const picked = [...files]
      .filter(([inside]) => inside === "package.json" || isDeclarationFile(inside))
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const bytes = picked.reduce((sum, [, content]) => sum + byteLength(content), 0);
    // A package goes whole or not at all: half a package's declarations is worse than none.
    if (total + bytes > maxBytes) continue;
    total += bytes;
    for (const [inside, content] of picked) out.push({ path: `${path}/${inside}`, content });
  }
  return { files: out };
}

/** The locked package a tree path is in (the deepest install path that prefixes it), and the path inside it. */
export function locateFile(lock: GadgetLock, path: string): { entry: LockedPackage; inside: string } | undefined {
  let best: string | undefined;
  for (const installPath of Object.keys(lock.packages))
    if (path.startsWith(`${installPath}/`) && (!best || installPath.length > best.length)) best = installPath;
  if (!best) return undefined;
  return { entry: lock.packages[best] as LockedPackage, inside: path.slice(best.length + 1) };
}
