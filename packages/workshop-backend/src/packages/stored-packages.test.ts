import { describe, expect, it } from "vitest";
import type { LockedPackage } from "@gadgets/workshop-shared/api";
import { SHARED_PACKAGE_SHARD_BYTES } from "@gadgets/workshop-shared/limits";
import { ensureStored } from "./package-fetch.ts";
import { PackageError } from "./package-error.ts";
import { RegistryClient } from "./registry-client.ts";
import {
  type PackageStoreObject,
  sharedObjectName,
  splitParts,
  StoredPackages,
  workspaceObjectName,
} from "./stored-packages.ts";
import { ALWAYS_WRITE, MemoryPackageStores } from "./testing/memory-package-store.ts";
import { FAKE_REGISTRY, FakeRegistry, integrityOf } from "./testing/fake-registry.ts";

async function lockedFrom(fake: FakeRegistry, name: string, version: string): Promise<LockedPackage> {
  const response = await fake.fetch(new Request(`${FAKE_REGISTRY}${name.replace("/", "%2f")}`));
  const packument = (await response.json()) as {
    versions: Record<string, { dist: { tarball: string; integrity: string } }>;
  };
  const dist = packument.versions[version]?.dist;
  if (!dist) throw new Error(`${name}@${version} is not in the fake registry`);
  return { name, version, resolved: dist.tarball, integrity: dist.integrity };
}

function setup(files: Record<string, string | Uint8Array> = { "index.js": "export default 1;" }) {
  const fake = new FakeRegistry({ a: { versions: { "1.0.0": { files } } } });
  const stores = new MemoryPackageStores();
  const stored = new StoredPackages(stores.open, "ws1");
  const registry = new RegistryClient({ base: FAKE_REGISTRY, fetch: fake.fetch, allowLocal: false });
  return { fake, stores, stored, registry };
}

describe("splitParts", () => {
  it("cuts long text into parts and never splits a surrogate pair", () => {
    expect(splitParts("abcdef", 4)).toEqual(["abcd", "ef"]);
    const parts = splitParts("abc😀def", 4);
    expect(parts.join("")).toBe("abc😀def");
    expect(parts[0]).toBe("abc");
  });
});

describe("ensureStored", () => {
  it("fetches, verifies and stores a default-registry package in a shared object, once", async () => {
    const { fake, stores, stored, registry } = setup();
    const entry = await lockedFrom(fake, "a", "1.0.0");
    fake.requests.length = 0;
    const first = await ensureStored({ stored, privateRegistry: false, registry, guard: ALWAYS_WRITE }, entry);
    expect(first.info).toMatchObject({ name: "a", version: "1.0.0", files: 2, types: false });
    expect(stores.stored(sharedObjectName(entry.integrity))).toEqual([entry.integrity]);
    expect(stores.opened.some((name) => name.startsWith("workspace:"))).toBe(false);
    await ensureStored({ stored, privateRegistry: false, registry, guard: ALWAYS_WRITE }, entry);
    expect(fake.requests).toHaveLength(1);
    const files = await stored.read(first.object, entry, first.info);
    expect(files.files.get("index.js")).toBe("export default 1;");
  });

  it("stores a package of a workspace's own registry in that workspace's object only", async () => {
    const { fake, stores, stored, registry } = setup();
    const entry = { ...(await lockedFrom(fake, "a", "1.0.0")), private: true as const };
    await ensureStored({ stored, privateRegistry: true, registry, guard: ALWAYS_WRITE }, entry);
    expect(stores.stored(workspaceObjectName("ws1"))).toEqual([entry.integrity]);
    expect(stores.stored(sharedObjectName(entry.integrity))).toEqual([]);
    // Another workspace reading the same lock entry finds nothing of ws1's.
    const other = new StoredPackages(stores.open, "ws2");
    expect(await other.find(entry, true)).toBeUndefined();
  });

  it("never joins another lock's fetch of the same integrity from another URL: its failure is not this one's", async () => {
    const { fake, stores, registry } = setup();
    const entry = await lockedFrom(fake, "a", "1.0.0");
    fake.overrides.set("/gone.tgz", () => new Response("no", { status: 404 }));
    const hostile = { ...entry, resolved: `${FAKE_REGISTRY}gone.tgz` };
    const [bad, good] = await Promise.allSettled([
      ensureStored(
        { stored: new StoredPackages(stores.open, "ws-a"), privateRegistry: false, registry, guard: ALWAYS_WRITE },
        hostile,
      ),
      ensureStored(
        { stored: new StoredPackages(stores.open, "ws-b"), privateRegistry: false, registry, guard: ALWAYS_WRITE },
        entry,
      ),
    ]);
    expect(bad.status).toBe("rejected");
    expect(good.status === "fulfilled" && good.value.info).toMatchObject({ name: "a", version: "1.0.0" });
  });

  it("does not fail with the fetch it joined: one ended by another caller's deadline is tried again", async () => {
    const { fake, stores, registry } = setup();
    const entry = await lockedFrom(fake, "a", "1.0.0");
    const deadline = new AbortController();
    const theirs = new RegistryClient({
      base: FAKE_REGISTRY,
      fetch: fake.fetch,
      allowLocal: false,
      signal: deadline.signal,
    });
    const context = (workspace: string, client: RegistryClient) => ({
      stored: new StoredPackages(stores.open, workspace),
      privateRegistry: false,
      registry: client,
      guard: ALWAYS_WRITE,
    });
    let release: () => void = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    // The first fetch waits; every later one is answered at once.
    fake.overrides.set(new URL(entry.resolved).pathname, async () => {
      fake.overrides.clear();
      await held;
      return fake.fetch(new Request(entry.resolved));
    });
    const first = ensureStored(context("ws-a", theirs), entry);
    const second = ensureStored(context("ws-b", registry), entry);
    deadline.abort(new Error("Resolving took too long"));
    release();
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a.status).toBe("rejected");
    expect(b.status === "fulfilled" && b.value.info).toMatchObject({ name: "a", version: "1.0.0" });
  });

  it("refuses a tarball whose integrity does not match and stores nothing", async () => {
    const { fake, stores, stored, registry } = setup();
    const entry = { ...(await lockedFrom(fake, "a", "1.0.0")), integrity: await integrityOf(new Uint8Array([9])) };
    const error = await ensureStored({ stored, privateRegistry: false, registry, guard: ALWAYS_WRITE }, entry).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(PackageError);
    expect((error as PackageError).kind).toBe("integrity");
    expect(stores.stored(sharedObjectName(entry.integrity))).toEqual([]);
  });

  it("writes a large package in parts and batches and reads it back whole", async () => {
    const big = "x".repeat(1_300_000);
    const { fake, stored, registry } = setup({ "big.js": big, "small.js": "1" });
    const entry = await lockedFrom(fake, "a", "1.0.0");
    const { object, info } = await ensureStored(
      { stored, privateRegistry: false, registry, guard: ALWAYS_WRITE },
      entry,
    );
    const read = await stored.read(object, entry, info);
    expect(read.files.get("big.js")).toBe(big);
    expect(read.files.get("small.js")).toBe("1");
    expect(await object.file(entry.integrity, "big.js")).toBe(big);
  });

  it("keeps binary files by name and says whether the package has its own types", async () => {
    const { fake, stored, registry } = setup({ "index.d.ts": "export {};", "addon.node": new Uint8Array([0, 255]) });
    const entry = await lockedFrom(fake, "a", "1.0.0");
    const { info } = await ensureStored({ stored, privateRegistry: false, registry, guard: ALWAYS_WRITE }, entry);
    expect(info.binaries).toEqual(["addon.node"]);
    expect(info.types).toBe(true);
  });
});

describe("StoredPackages.load", () => {
  it("reads a stored package with no lookup before (its info comes with the first page), and nothing for one not stored", async () => {
    const big = "y".repeat(5_000_000);
    const { fake, stores, stored, registry } = setup({ "big.js": big, "index.js": "export default 1;" });
    const entry = await lockedFrom(fake, "a", "1.0.0");
    expect(await stored.load(entry, false)).toBeUndefined();
    await ensureStored({ stored, privateRegistry: false, registry, guard: ALWAYS_WRITE }, entry);
    const calls: string[] = [];
    const counted = new StoredPackages((name) => {
      const object = stores.open(name);
      return {
        ...object,
        info: (integrity) => {
          calls.push("info");
          return object.info(integrity);
        },
        read: (integrity, after, maxChars) => {
          calls.push("read");
          return object.read(integrity, after, maxChars);
        },
      };
    }, "ws1");
    const loaded = await counted.load(entry, false);
    expect(loaded?.info).toMatchObject({ name: "a", version: "1.0.0", files: 3 });
    expect(loaded?.files.get("big.js")).toBe(big);
    expect(loaded?.files.get("index.js")).toBe("export default 1;");
    // Over BATCH_CHARS: two pages, two calls, and no `info` lookup.
    expect(calls).toEqual(["read", "read"]);
  });

  it("answers nothing for a package a full shard dropped between its pages, and reading it after a fetch says so", async () => {
    const { fake, stored, registry } = setup();
    const entry = await lockedFrom(fake, "a", "1.0.0");
    const { object, info } = await ensureStored(
      { stored, privateRegistry: false, registry, guard: ALWAYS_WRITE },
      entry,
    );
    const dropping: PackageStoreObject = {
      ...object,
      read: async (integrity, after, maxChars) => {
        if (after) return undefined;
        const first = await object.read(integrity, after, maxChars);
        return first && { ...first, next: { path: "index.js", part: 0 } };
      },
    };
    const dropped = new StoredPackages(() => dropping, "ws1");
    expect(await dropped.load(entry, false)).toBeUndefined();
    await expect(dropped.read(dropping, entry, info)).rejects.toMatchObject({
      kind: "storage-full",
      message: expect.stringContaining("dropped from the Workshop's package store"),
    });
  });

  it("asks a shared shard to keep its room, and a workspace's own object not", async () => {
    const shared = setup();
    const entry = await lockedFrom(shared.fake, "a", "1.0.0");
    await ensureStored({ ...shared, privateRegistry: false, guard: ALWAYS_WRITE }, entry);
    expect(shared.stores.commits).toEqual([
      { name: sharedObjectName(entry.integrity), keepBytes: SHARED_PACKAGE_SHARD_BYTES },
    ]);
    const own = setup();
    await ensureStored({ ...own, privateRegistry: true, guard: ALWAYS_WRITE }, { ...entry, private: true });
    expect(own.stores.commits).toEqual([{ name: workspaceObjectName("ws1"), keepBytes: undefined }]);
  });
});
