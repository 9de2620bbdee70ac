import { WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";
import { afterEach, describe, expect, it } from "vitest";
import { type SqliteStorage, workspaceStorage } from "../storage/testing/sqlite-storage.ts";
import { UsageTable } from "../storage/usage-table.ts";
import { parseLock } from "./lock-text.ts";
import { ensureStored } from "./package-fetch.ts";
import { RegistryClient } from "./registry-client.ts";
import { resolveLock, type ResolutionPackages } from "./resolution.ts";
import { type OpenPackageStore, StoredPackages, workspaceObjectName } from "./stored-packages.ts";
import { MemoryPackageStores } from "./testing/memory-package-store.ts";
import { FAKE_REGISTRY, FakeRegistry } from "./testing/fake-registry.ts";
import { storedPackageSource } from "./workspace-packages.ts";
import { storeWriteGuard } from "./write-guard.ts";

const DISK_FULL = "The Workshop's disk is nearly full. Nothing was saved; reading still works.";

const opened: SqliteStorage[] = [];
afterEach(() => {
  for (const storage of opened.splice(0)) storage.close();
});

interface SetupOptions {
  /** Resolves against the workspace's own registry: its packages are stored for it alone, and charged. */
  privateRegistry?: boolean;
  /** Bytes already used in the workspace before the resolution. */
  used?: number;
  /** Wraps the store objects (to make a write fail). */
  wrap?: (open: OpenPackageStore) => OpenPackageStore;
}

/** A resolution through the real guard: the disk full while `disk.full`, the quota a real UsageTable's. */
function setup({ privateRegistry = false, used = 0, wrap = (open) => open }: SetupOptions = {}) {
  const fake = new FakeRegistry({
    a: { versions: { "1.0.0": { dependencies: { b: "1" } } } },
    b: { versions: { "1.0.0": { files: { "index.js": "export default 2;" } } } },
  });
  const stores = new MemoryPackageStores();
  const stored = new StoredPackages(wrap(stores.open), "ws1");
  const workspace = workspaceStorage();
  opened.push(workspace);
  const usage = new UsageTable(workspace.sql);
  usage.grow("drafts", used);
  const disk = { full: true };
  const guard = storeWriteGuard(async () => (disk.full ? DISK_FULL : undefined), {
    charge: async (entry, bytes) => usage.chargePackage(entry.integrity, entry.name, entry.version, bytes),
    refund: async (entry) => usage.refundPackage(entry.integrity),
  });
  const resolution: ResolutionPackages = {
    async client(signal) {
      const client = new RegistryClient({
        base: FAKE_REGISTRY,
        fetch: fake.fetch,
        allowLocal: false,
        ...(signal ? { signal } : {}),
      });
      return { registry: { base: FAKE_REGISTRY, isDefault: !privateRegistry }, client };
    },
    async ensure(entry, access) {
      const registry = access?.client ?? (await this.client()).client;
      return ensureStored({ stored, privateRegistry, registry, guard }, entry);
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
  return { disk, usage, resolution, stored, stores, committed, parts, resolve };
}

describe("the store's write guard", () => {
  it("asks the disk guard whether a write goes to the workspace's own object or to the shared store", async () => {
    const asked: boolean[] = [];
    const guard = storeWriteGuard(
      async (forWorkspace) => {
        asked.push(forWorkspace);
        return forWorkspace ? undefined : "No room left for shared packages.";
      },
      { charge: async () => undefined, refund: async () => {} },
    );
    const entry = {
      name: "a",
      version: "1.0.0",
      resolved: "https://registry.example/a/-/a-1.0.0.tgz",
      integrity: `sha512-${"A".repeat(86)}==`,
    };
    await expect(guard.reserve(entry, 10, false)).rejects.toThrow(
      /"a" 1\.0\.0 was not stored\. No room left for shared/,
    );
    await expect(guard.reserve(entry, 10, true)).resolves.toBeUndefined();
    expect(asked).toEqual([false, true]);
  });

  it("answers a resolution on a nearly full disk as storage-full naming the package, storing nothing", async () => {
    const { committed, parts, resolve } = setup();
    const outcome = await resolve();
    expect(outcome).toMatchObject({ status: "error", kind: "storage-full", package: expect.stringMatching(/^[ab]$/) });
    expect(outcome.status === "error" && outcome.message).toMatch(
      /^"[ab]" 1\.0\.0 was not stored\. The Workshop's disk/,
    );
    expect(committed()).toEqual([]);
    expect(parts()).toBe(0);
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
    const first = setup();
    first.disk.full = false;
    const outcome = await first.resolve();
    if (outcome.status !== "ok") throw new Error(outcome.message);
    const lock = parseLock(outcome.lock);
    // Another Workshop's store (another data folder) with its disk full: the lock's package is fetched there.
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

describe("the quota of a workspace's own packages", () => {
  it("charges each package of its own registry once, by its unpacked bytes; the default registry's charge nothing", async () => {
    const own = setup({ privateRegistry: true });
    own.disk.full = false;
    expect((await own.resolve()).status).toBe("ok");
    expect(own.stores.stored(workspaceObjectName("ws1"))).toHaveLength(2);
    const charged = own.usage.bytes().packages;
    expect(charged).toBeGreaterThan(0);
    expect(own.usage.usage().usedBytes).toBe(charged);
    // A second resolution finds both stored: no new charge.
    expect((await own.resolve()).status).toBe("ok");
    expect(own.usage.bytes().packages).toBe(charged);

    const shared = setup();
    shared.disk.full = false;
    expect((await shared.resolve()).status).toBe("ok");
    expect(shared.usage.bytes().packages).toBe(0);
  });

  it("refuses a package that does not fit as storage-full with the quota's words, storing and charging nothing", async () => {
    const full = setup({ privateRegistry: true, used: WORKSPACE_QUOTA_BYTES });
    full.disk.full = false;
    const outcome = await full.resolve();
    expect(outcome).toMatchObject({ status: "error", kind: "storage-full" });
    expect(outcome.status === "error" && outcome.message).toMatch(
      /was not stored\. This workspace's storage quota is full/,
    );
    expect(full.committed()).toEqual([]);
    expect(full.usage.bytes().packages).toBe(0);
  });

  it.each(["putParts", "commit"] as const)(
    "gives the charge back and leaves no part behind when a write fails (at %s)",
    async (failingStep) => {
      const failing = setup({
        privateRegistry: true,
        wrap: (open) => (name) => ({
          ...open(name),
          [failingStep]: async () => {
            throw new Error("storage went away");
          },
        }),
      });
      failing.disk.full = false;
      await expect(failing.resolve()).rejects.toThrow("storage went away");
      expect(failing.usage.bytes().packages).toBe(0);
      expect(failing.committed()).toEqual([]);
      expect(failing.parts()).toBe(0);
    },
  );
});
