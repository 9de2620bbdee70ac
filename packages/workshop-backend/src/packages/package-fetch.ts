/**
 * Brings one locked package into the store when it is not there yet: its tarball fetched from the
 * lock's `resolved` URL, checked against the lock's integrity before any byte is used, unpacked, then
 * written (visible only once whole). A package already stored costs one lookup and no network. One
 * Worker isolate fetches a given package once at a time, however many runs or resolutions ask.
 */

import type { LockedPackage } from "@gadgets/workshop-shared/api";
import { verifyIntegrity } from "./integrity.ts";
import type { StoredPackageInfo } from "./package-table.ts";
import type { RegistryClient } from "./registry-client.ts";
import type { PackageStoreObject, StoredPackages } from "./stored-packages.ts";
import { unpackTarball } from "./tarball.ts";
import type { WriteGuard } from "./write-guard.ts";

export interface FetchContext {
  stored: StoredPackages;
  /** Whether the workspace resolves against its own registry (its packages are then stored for it alone). */
  privateRegistry: boolean;
  /** Fetches tarballs (the token goes only to the registry's own origin). */
  registry: Pick<RegistryClient, "tarball">;
  /**
   * Asked once the package is verified and unpacked, before its first byte is written (it throws a
   * "storage-full" PackageError to refuse: disk nearly full, quota), and after a write that failed.
   */
  guard: WriteGuard;
}

export interface StoredPackage {
  object: PackageStoreObject;
  info: StoredPackageInfo;
}

const inFlight = new Map<string, Promise<StoredPackage>>();

export async function ensureStored(context: FetchContext, entry: LockedPackage): Promise<StoredPackage> {
  const found = await context.stored.find(entry, context.privateRegistry);
  if (found) return found;
  // Keyed by where it is written too: a workspace's private copy never waits on, or stands for, a shared
  // one; and by where it comes from: another workspace's lock naming a dead URL for the same integrity
  // must not fail this one's fetch.
  const key = `${context.stored.objectNamesFor(entry, context.privateRegistry)[0]}\0${entry.integrity}\0${entry.resolved}`;
  const joined = inFlight.get(key);
  if (joined) {
    try {
      return await joined;
    } catch {
      // That fetch was another caller's, on its client: its deadline (a resolution's) or its registry's
      // answer ended it. This caller tries once on its own (joining a retry someone else started first).
    }
  }
  let running = inFlight.get(key);
  if (!running) {
    running = fetchAndStore(context, entry);
    inFlight.set(key, running);
    running.finally(() => inFlight.delete(key)).catch(() => {});
  }
  return running;
}

async function fetchAndStore(context: FetchContext, entry: LockedPackage): Promise<StoredPackage> {
  const target = context.stored.writeTarget(entry, context.privateRegistry);
  const bytes = await context.registry.tarball(entry.resolved, entry.name, entry.version);
  await verifyIntegrity(bytes, entry.integrity, entry.name, entry.version);
  const unpacked = await unpackTarball(bytes, entry.name, entry.version);
  const forWorkspace = context.stored.forWorkspace(entry, context.privateRegistry);
  await context.guard.reserve(entry, unpacked.bytes, forWorkspace);
  try {
    const info = await context.stored.write(entry, context.privateRegistry, unpacked);
    return { object: target, info };
  } catch (error) {
    // Not visible in the store (its row is written last): nothing stays charged for it, and the parts
    // written before the failure go too. The write's own error is the one the caller hears of.
    await Promise.allSettled([target.discard(entry.integrity), context.guard.release(entry, forWorkspace)]);
    throw error;
  }
}
