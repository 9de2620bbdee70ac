/**
 * What is asked before a fetched package is written to the store, and after a write that failed: the disk
 * guard's refusal, and for a package stored for one workspace alone (from its own registry) that
 * workspace's quota, charged once per integrity. A refusal is a "storage-full" PackageError naming the
 * package, which a resolution answers as its outcome and a build as its error, with nothing of the
 * package stored; a failed write gives its charge back.
 */

import type { LockedPackage } from "@gadgets/workshop-shared/api";
import { PackageError } from "./package-error.ts";

export interface WriteGuard {
  /** Before the first byte is written; `forWorkspace`: it goes to the workspace's own object. Throws to refuse. */
  reserve(entry: LockedPackage, unpackedBytes: number, forWorkspace: boolean): Promise<void>;
  /** After a write that failed: gives back what `reserve` took. */
  release(entry: LockedPackage, forWorkspace: boolean): Promise<void>;
}

/** The workspace's quota for its own packages (the workspace store's `chargePackage`, `refundPackage`). */
export interface PackageQuota {
  /** The quota's refusal, or undefined once charged (a package already charged is not charged again). */
  charge(entry: LockedPackage, unpackedBytes: number): Promise<string | undefined>;
  refund(entry: LockedPackage): Promise<void>;
}

/** `diskRefusal(forWorkspace)`: the disk guard's word on a write to the workspace's own object or to the shared store. */
export function storeWriteGuard(
  diskRefusal: (forWorkspace: boolean) => Promise<string | undefined>,
  quota: PackageQuota,
): WriteGuard {
  const refuse = (entry: LockedPackage, reason: string) =>
    new PackageError("storage-full", `"${entry.name}" ${entry.version} was not stored. ${reason}`, entry.name);
  return {
    async reserve(entry, unpackedBytes, forWorkspace) {
      const disk = await diskRefusal(forWorkspace);
      if (disk) throw refuse(entry, disk);
      if (!forWorkspace) return;
      const over = await quota.charge(entry, unpackedBytes);
      if (over) throw refuse(entry, over);
    },
    async release(entry, forWorkspace) {
      if (forWorkspace) await quota.refund(entry);
    },
  };
}
