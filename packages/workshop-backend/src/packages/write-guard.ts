/**
 * What is asked before a fetched package is written to the store: the disk guard's refusal (and any
 * other reason not to store it) becomes a "storage-full" PackageError naming the package, which a
 * resolution answers as its outcome and a build as its error, with nothing of the package stored.
 */

import { PackageError } from "./package-error.ts";
import type { BeforeWrite } from "./package-fetch.ts";

/** Why `bytes` more may not be stored now, or undefined when they may. */
export type WriteRefusal = (unpackedBytes: number) => Promise<string | undefined>;

export function refuseWritesWhen(...refusals: WriteRefusal[]): BeforeWrite {
  return async (entry, unpackedBytes) => {
    for (const refusal of refusals) {
      const reason = await refusal(unpackedBytes);
      if (reason)
        throw new PackageError(
          "storage-full",
          `"${entry.name}" ${entry.version} was not stored. ${reason}`,
          entry.name,
        );
    }
  };
}
