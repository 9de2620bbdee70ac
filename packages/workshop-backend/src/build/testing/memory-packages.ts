/**
 * Locked package trees in memory for build tests: a lock and a PackageSource over the same files, so
 * loading is tested without a registry or a store.
 */

import type { GadgetFile, GadgetLock, LockedPackage } from "@gadgets/workshop-shared/api";
import type { PackageFilesResult, PackageSource } from "../../packages/package-source.ts";

export interface MemoryPackage {
  version?: string;
  /** Files by path inside the package; package.json is made from the name and version unless given. */
  files: Record<string, string>;
  /** More package.json fields (`main`, `exports`, `type`…), when package.json is not among `files`. */
  manifest?: Record<string, unknown>;
}

const FAKE_INTEGRITY = `sha512-${"A".repeat(86)}==`;

function nameOf(installPath: string): string {
  const at = installPath.lastIndexOf("node_modules/");
  return installPath.slice(at + "node_modules/".length);
}

/** A lock and its source for packages by install path (`node_modules/a/node_modules/b`). */
export function memoryTree(
  packages: Record<string, MemoryPackage>,
  dependencies: Record<string, string>,
): { lock: GadgetLock; source: PackageSource & { asked: string[] } } {
  const locked: Record<string, LockedPackage> = {};
  const files = new Map<string, Map<string, string>>();
  for (const [installPath, pkg] of Object.entries(packages)) {
    const name = nameOf(installPath);
    const version = pkg.version ?? "1.0.0";
    locked[installPath] = {
      name,
      version,
      resolved: `https://registry.test/${name}/-/${name.replace(/^@[^/]+\//, "")}-${version}.tgz`,
      integrity: FAKE_INTEGRITY,
    };
    const all = new Map(Object.entries(pkg.files));
    if (!all.has("package.json")) all.set("package.json", JSON.stringify({ name, version, ...pkg.manifest }));
    files.set(`${name}@${version}`, all);
  }
  const asked: string[] = [];
  const source = {
    asked,
    async files(entry: LockedPackage): Promise<PackageFilesResult> {
      asked.push(`${entry.name}@${entry.version}`);
      const found = files.get(`${entry.name}@${entry.version}`);
      return found
        ? { ok: true, files: found }
        : { ok: false, kind: "integrity", message: `${entry.name}@${entry.version} is not in the store.` };
    },
  };
  return { lock: { lockfileVersion: 1, dependencies, packages: locked }, source };
}

/** A gadget's files: `index.ts` from `source`, a manifest with `dependencies`, and the lock. */
export function gadgetWith(
  source: string,
  dependencies: Record<string, string>,
  lock: GadgetLock | undefined,
  more: GadgetFile[] = [],
): GadgetFile[] {
  const manifest = { name: "pkg-test", entry: "index.ts", dependencies };
  return [
    { path: "gadget.json", content: JSON.stringify(manifest) },
    { path: "index.ts", content: source },
    ...(lock ? [{ path: "gadget.lock.json", content: JSON.stringify(lock) }] : []),
    ...more,
  ];
}
