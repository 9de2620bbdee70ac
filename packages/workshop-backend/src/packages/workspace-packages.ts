/**
 * One workspace's view of packages, as the session and the build use it: the store objects it may read
 * and write, and its registry (read from the workspace store once, on first need, token opened).
 * `packageSourceFor` is the build's `PackageSource` over it: a stored package is answered from the store
 * without any network (a draft locked earlier runs with the registry down); a package not stored yet
 * (a lock copied from elsewhere) is fetched from the lock's `resolved` URL, verified, stored, then answered.
 */

import type { LockedPackage } from "@gadgets/workshop-shared/api";
import { RESOLVE_TIMEOUT_MS, SHARED_PACKAGE_DISK_HEADROOM_BYTES } from "@gadgets/workshop-shared/limits";
import type { Env } from "../env.ts";
import { diskWriteRefusal } from "../rpc/disk-guard.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { ensureStored, type StoredPackage } from "./package-fetch.ts";
import { PackageError } from "./package-error.ts";
import type { PackageSource } from "./package-source.ts";
import { RegistryClient } from "./registry-client.ts";
import {
  allowsLocalRegistry,
  defaultRegistry,
  registryFetch,
  type WorkspaceRegistry,
  workspaceRegistry,
} from "./registry-setting.ts";
import { type PackageStoreObject, StoredPackages, type StoredFiles } from "./stored-packages.ts";
import { storeWriteGuard, type WriteGuard } from "./write-guard.ts";

export interface RegistryAccess {
  registry: WorkspaceRegistry;
  client: RegistryClient;
}

export class WorkspacePackages {
  readonly stored: StoredPackages;
  #registry: Promise<WorkspaceRegistry> | undefined;

  /**
   * @param runSignal a build's run: the packages it fetches stop when the run does, and after
   *   RESOLVE_TIMEOUT_MS of fetching in all, as a resolution's do.
   */
  constructor(
    private readonly env: Env,
    workspaceId: string,
    private readonly store: DurableObjectStub<WorkspaceStore>,
    private readonly runSignal?: AbortSignal,
  ) {
    const namespace = env.PACKAGES;
    this.stored = new StoredPackages(
      (name) => namespace.get(namespace.idFromName(name)) as unknown as PackageStoreObject,
      workspaceId,
    );
    this.workspaceId = workspaceId;
    // The disk guard for every package written (shared ones leave a headroom above its floor); the
    // workspace's quota for those stored for it alone.
    this.#guard = storeWriteGuard(
      (forWorkspace) => diskWriteRefusal(env, forWorkspace ? 0 : SHARED_PACKAGE_DISK_HEADROOM_BYTES),
      {
        charge: (entry, bytes) => store.chargePackage(entry.integrity, entry.name, entry.version, bytes),
        refund: (entry) => store.refundPackage(entry.integrity),
      },
    );
  }

  readonly #guard: WriteGuard;

  readonly workspaceId: string;

  registry(): Promise<WorkspaceRegistry> {
    this.#registry ??= workspaceRegistry(this.env, this.workspaceId, this.store);
    return this.#registry;
  }

  #buildSignal: AbortSignal | undefined;

  /** A client of the workspace's registry, under the resolution's deadline or the build's run. */
  async client(signal?: AbortSignal): Promise<RegistryAccess> {
    // Made on the first package not stored: a run that fetches nothing starts no timer.
    if (!signal && this.runSignal)
      signal = this.#buildSignal ??= AbortSignal.any([this.runSignal, AbortSignal.timeout(RESOLVE_TIMEOUT_MS)]);
    const registry = await this.registry();
    const client = new RegistryClient({
      base: registry.base,
      ...(registry.token ? { token: registry.token } : {}),
      // A lock locked against the default registry still loads in a workspace that later set its own.
      tarballOrigins: [new URL(defaultRegistry(this.env)).origin],
      fetch: registryFetch(this.env),
      allowLocal: allowsLocalRegistry(this.env),
      ...(signal ? { signal } : {}),
    });
    return { registry, client };
  }

  /** The package from the store, fetched and stored first when it is not there yet. */
  async ensure(entry: LockedPackage, access?: RegistryAccess): Promise<StoredPackage> {
    // A default-registry package in a shared object: found without reading the workspace's setting.
    const quick = await this.stored.find(entry, false);
    if (quick) return quick;
    const { registry, client } = access ?? (await this.client());
    return ensureStored(
      {
        stored: this.stored,
        privateRegistry: !registry.isDefault,
        registry: client,
        guard: this.#guard,
      },
      entry,
    );
  }

  async files(entry: LockedPackage, access?: RegistryAccess): Promise<StoredFiles> {
    // What a build asks: a stored package read straight away, without a lookup before.
    const stored = await this.stored.load(entry, false);
    if (stored) return stored;
    const { object, info } = await this.ensure(entry, access);
    return this.stored.read(object, entry, info);
  }

  async file(entry: LockedPackage, path: string): Promise<string | undefined> {
    const { object } = await this.ensure(entry);
    return object.file(entry.integrity, path);
  }
}

/** The build's source of package files for one workspace's run. */
export function packageSourceFor(
  env: Env,
  workspaceId: string,
  store: DurableObjectStub<WorkspaceStore>,
  runSignal: AbortSignal,
): PackageSource {
  return storedPackageSource(new WorkspacePackages(env, workspaceId, store, runSignal));
}

export function storedPackageSource(packages: Pick<WorkspacePackages, "files">): PackageSource {
  return {
    async files(entry) {
      try {
        const { files, binaries } = await packages.files(entry);
        return { ok: true, files, binaries };
      } catch (error) {
        if (!(error instanceof PackageError)) throw error;
        return { ok: false, kind: error.kind, message: error.message };
      }
    },
  };
}
