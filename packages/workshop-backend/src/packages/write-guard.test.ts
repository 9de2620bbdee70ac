import { describe, expect, it } from "vitest";
import { parseLock } from "./lock-text.ts";
import { ensureStored } from "./package-fetch.ts";
import { RegistryClient } from "./registry-client.ts";
import { resolveLock, type ResolutionPackages } from "./resolution.ts";
import { StoredPackages } from "./stored-packages.ts";
import { MemoryPackageStores } from "./testing/memory-package-store.ts";
import { FAKE_REGISTRY, FakeRegistry } from "./testing/fake-registry.ts";
import { storedPackageSource } from "./workspace-packages.ts";
import { refuseWritesWhen } from "./write-guard.ts";

const DISK_FULL = "The Workshop's disk is nearly full. Nothing was saved; reading still works.";

/** A resolution whose writes pass the guard only while `disk.full` is false. */
function setup() {
  const fake = new FakeRegistry({
    a: { versions: { "1.0.0": { dependencies: { b: "1" } } } },
    b: { versions: { "1.0.0": { files: { "index.js": "export default 2;" } } } },
  });
  const stores = new MemoryPackageStores();
  const stored = new StoredPackages(stores.open, "ws1");
  const disk = { full: true, asked: [] as number[] };
  const beforeWrite = refuseWritesWhen(async (bytes) => {
    disk.asked.push(bytes);
    return disk.full ? DISK_FULL : undefined;
  });
  const resolution: ResolutionPackages = {
    async client(signal) {
      const client = new RegistryClient({
        base: FAKE_REGISTRY,
        fetch: fake.fetch,
        allowLocal: false,
        ...(signal ? { signal } : {}),
      });
      return { registry: { base: FAKE_REGISTRY, isDefault: true }, client };
    },
    async ensure(entry, access) {
      const registry = access?.client ?? (await this.client()).client;
      return ensureStored({ stored, privateRegistry: false, registry, beforeWrite }, entry);
    },
  };
  const committed = () => [...stores.tables.keys()].flatMap((name) => stores.stored(name));
  const parts = () =>
    [...stores.tables.values()].reduce(
      (total, table) =>
        total +
        (table as unknown as { sql: SqlStorage }).sql
          .exec<{ n: number }>("SELECT COUNT(*) AS n FROM package_files")
          .one().n,
      0,
    );
  const resolve = () => resolveLock(resolution, { dependencies: { a: "^1.0.0" } }, new AbortController().signal);
  return { disk, resolution, stored, committed, parts, resolve };
}

describe("the store's write guard", () => {
  it("answers a resolution on a nearly full disk as storage-full naming the package, storing nothing", async () => {
    const { disk, committed, parts, resolve } = setup();
    const outcome = await resolve();
    expect(outcome).toMatchObject({ status: "error", kind: "storage-full", package: expect.stringMatching(/^[ab]$/) });
    expect(outcome.status === "error" && outcome.message).toMatch(
      /^"[ab]" 1\.0\.0 was not stored\. The Workshop's disk/,
    );
    expect(committed()).toEqual([]);
    expect(parts()).toBe(0);
    // The guard was asked with the unpacked size, before any write.
    expect(disk.asked.every((bytes) => bytes > 0)).toBe(true);
  });

  it("stores and locks the same tree once the disk has room again", async () => {
    const { disk, committed, resolve } = setup();
    await resolve();
    disk.full = false;
    const outcome = await resolve();
    expect(outcome.status).toBe("ok");
    expect(committed()).toHaveLength(2);
  });

  it("answers a build's package source as a storage-full failure, not a throw", async () => {
    const { disk, resolve } = setup();
    disk.full = false;
    const outcome = await resolve();
    if (outcome.status !== "ok") throw new Error(outcome.message);
    const lock = parseLock(outcome.lock);
    // A second Workshop store (another data folder) with the disk full: the lock's package is fetched there.
    const other = setup();
    const source = storedPackageSource({
      files: async (entry) => {
        const { object, info } = await other.resolution.ensure(entry);
        return other.stored.read(object, entry, info);
      },
    });
    const answer = await source.files(lock.packages["node_modules/b"] as never);
    expect(answer).toMatchObject({
      ok: false,
      kind: "storage-full",
      message: expect.stringMatching(/"b" 1\.0\.0 was not stored/),
    });
    expect(other.committed()).toEqual([]);
  });
});
