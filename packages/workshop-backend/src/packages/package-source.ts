/**
 * Where a build gets the files of a locked package: the Workshop's own store, content-addressed by the
 * package's integrity (fetched from the registry and verified once, on a miss). The build never talks
 * to a registry itself.
 */

import type { LockedPackage, PackageErrorKind } from "@gadgets/workshop-shared/api";

/** One package's unpacked files, by path inside the package ("package.json", "lib/index.js"). */
export type PackageFiles = ReadonlyMap<string, string>;

export type PackageFilesResult =
  | {
      ok: true;
      files: PackageFiles;
      /** Files kept by name only (not UTF-8 text, or `.node` native addons), so the loader can name them. */
      binaries?: readonly string[];
    }
  | { ok: false; kind: PackageErrorKind; message: string };

export interface PackageSource {
  /** The files of one package of the lock (text files only; binary ones are left out and named by the loader's errors). */
  files(entry: LockedPackage): Promise<PackageFilesResult>;
}
