/**
 * The PackageSource of anonymous runs (shares, embeds, public records): packages already in the
 * Workshop's shared store, and nothing else. A visitor may run edited files with a lock of their own,
 * so this source never fetches (no anonymous caller makes the Workshop download a URL it names), and
 * it cannot open a workspace's private packages (those never leave their workspace).
 */

import type { Env } from "../env.ts";
import type { PackageSource } from "./package-source.ts";
import { type PackageStoreObject, StoredPackages } from "./stored-packages.ts";

export function storedOnlyPackageSource(env: Env): PackageSource {
  const namespace = env.PACKAGES;
  // No workspace: only shared objects are ever named (`load(entry, false)` for a lock's public packages).
  const stored = new StoredPackages(
    (name) => namespace.get(namespace.idFromName(name)) as unknown as PackageStoreObject,
    "anonymous",
  );
  return {
    async files(entry) {
      const found = entry.private ? undefined : await stored.load(entry, false);
      if (!found)
        return {
          ok: false,
          kind: "unknown-package",
          message: `Package "${entry.name}" ${entry.version} is not stored in this Workshop${entry.private ? " for anyone but the workspace whose registry it came from" : ""}: a shared gadget runs only packages its author's runs already stored.`,
        };
      return { ok: true, files: found.files, binaries: found.binaries };
    },
  };
}
