import type { ResolveOutcome } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import { parseLock } from "./lock-text.ts";
import { ensureStored } from "./package-fetch.ts";
import { RegistryClient, type RegistryFetch } from "./registry-client.ts";
import { resolveLock, type ResolutionPackages } from "./resolution.ts";
import { StoredPackages } from "./stored-packages.ts";
import { ALWAYS_WRITE, MemoryPackageStores } from "./testing/memory-package-store.ts";
import { FAKE_REGISTRY, type FakePackage, FakeRegistry, integrityOf } from "./testing/fake-registry.ts";
import { storedPackageSource } from "./workspace-packages.ts";

function setup(packages: Record<string, FakePackage>) {
  const fake = new FakeRegistry(packages);
  const stores = new MemoryPackageStores();
  const stored = new StoredPackages(stores.open, "ws1");
  let fetcher: RegistryFetch = fake.fetch;
  const resolution: ResolutionPackages = {
    async client(signal) {
      const client = new RegistryClient({
        base: FAKE_REGISTRY,
        fetch: (request) => fetcher(request),
        allowLocal: false,
        ...(signal ? { signal } : {}),
      });
      return { registry: { base: FAKE_REGISTRY, isDefault: true }, client };
    },
    async ensure(entry, access) {
      const registry = access?.client ?? (await this.client()).client;
      return ensureStored({ stored, privateRegistry: false, registry, guard: ALWAYS_WRITE }, entry);
    },
  };
  const source = storedPackageSource({
    files: async (entry) => {
      const { object, info } = await resolution.ensure(entry);
      return stored.read(object, entry, info);
    },
  });
  return {
    fake,
    stores,
    resolution,
    source,
    registryDown: () => {
      fetcher = async () => {
        throw new TypeError("connection refused");
      };
    },
    resolve: (dependencies: Record<string, string>, more: { lock?: string; update?: true | string[] } = {}) =>
      resolveLock(resolution, { dependencies, ...more }, new AbortController().signal),
  };
}

function ok(outcome: ResolveOutcome) {
  if (outcome.status !== "ok") throw new Error(`expected ok, got ${outcome.kind}: ${outcome.message}`);
  return outcome;
}

const CHAIN = {
  a: { versions: { "1.0.0": { dependencies: { b: "1" }, files: { "index.d.ts": "export {};" } } } },
  b: { versions: { "1.0.0": { dependencies: { c: "1" } } } },
  c: { versions: { "1.0.0": {} } },
};

describe("resolveLock", () => {
  it("answers the lock with each package's tarball and integrity, direct dependencies first, all stored", async () => {
    const { resolve, source } = setup(CHAIN);
    const outcome = ok(await resolve({ a: "^1.0.0" }));
    expect(outcome.packages.map((p) => p.path)).toEqual(["node_modules/a", "node_modules/b", "node_modules/c"]);
    const lock = parseLock(outcome.lock);
    expect(lock.dependencies).toEqual({ a: "^1.0.0" });
    expect(lock.packages["node_modules/c"]?.integrity).toMatch(/^sha512-/);
    const files = await source.files(lock.packages["node_modules/c"] as never);
    expect(files.ok && files.files.has("package.json")).toBe(true);
  });

  it("resolves the same lock again with the registry down, and runs from the store", async () => {
    const { resolve, source, registryDown } = setup(CHAIN);
    const first = ok(await resolve({ a: "^1.0.0" }));
    registryDown();
    const again = ok(await resolve({ a: "^1.0.0" }, { lock: first.lock }));
    expect(again.lock).toBe(first.lock);
    const entry = parseLock(first.lock).packages["node_modules/a"];
    expect((await source.files(entry as never)).ok).toBe(true);
  });

  it("says the registry is unreachable when it is down and nothing is locked", async () => {
    const { resolve, registryDown } = setup(CHAIN);
    registryDown();
    const outcome = await resolve({ a: "1" });
    expect(outcome).toMatchObject({ status: "error", kind: "registry-unreachable", package: "a" });
  });

  it("adds @types/<name> for a direct dependency without types, marked as for the editor only", async () => {
    const { resolve } = setup({
      plain: { versions: { "2.3.1": {} } },
      "@types/plain": { versions: { "1.0.0": {}, "2.3.4": { dependencies: { "@types/base": "1" } }, "2.4.0": {} } },
      "@types/base": { versions: { "1.0.0": { files: { "index.d.ts": "" } } } },
      typed: { versions: { "1.0.0": { files: { "index.d.ts": "export {};" } } } },
    });
    const lock = parseLock(ok(await resolve({ plain: "2", typed: "1" })).lock);
    expect(lock.packages["node_modules/@types/plain"]).toMatchObject({ version: "2.3.4", types: true });
    expect(lock.packages["node_modules/@types/base"]?.types).toBe(true);
    expect(lock.packages["node_modules/plain"]?.types).toBeUndefined();
    expect(lock.packages["node_modules/@types/typed"]).toBeUndefined();
    expect(lock.dependencies).toEqual({ plain: "2", typed: "1" });
  });

  it("refuses a tarball whose integrity does not match, naming package and version", async () => {
    const { resolve } = setup({
      bad: { versions: { "1.0.0": { integrity: await integrityOf(new Uint8Array([1])) } } },
    });
    const outcome = await resolve({ bad: "1" });
    expect(outcome).toMatchObject({ status: "error", kind: "integrity", package: "bad" });
    expect(outcome.status === "error" && outcome.message).toMatch(/bad@1\.0\.0/);
  });

  it("refuses a tar with ../ entries, and a cycle", async () => {
    const evil = {
      versions: {
        "1.0.0": {
          entries: [
            { header: { name: "package/package.json", size: 2 }, body: "{}" },
            { header: { name: "package/../../x", size: 1 }, body: "x" },
          ],
        },
      },
    };
    const { resolve } = setup({
      evil,
      a: { versions: { "1.0.0": { dependencies: { b: "1" } } } },
      b: { versions: { "1.0.0": { dependencies: { a: "1" } } } },
    });
    expect(await resolve({ evil: "1" })).toMatchObject({ status: "error", kind: "unsafe-tarball", package: "evil" });
    expect(await resolve({ a: "1" })).toMatchObject({ status: "error", kind: "cycle" });
  });

  it("holds MAX_TREE_UNPACKED_BYTES: a tree of N bytes passes, N + 1 is refused", async () => {
    const { resolution } = setup(CHAIN);
    const signal = new AbortController().signal;
    const probe = ok(await resolveLock(resolution, { dependencies: { a: "1" } }, signal));
    const lock = parseLock(probe.lock);
    let bytes = 0;
    for (const entry of Object.values(lock.packages)) bytes += (await resolution.ensure(entry)).info.bytes;
    expect((await resolveLock(resolution, { dependencies: { a: "1" } }, signal, { maxTreeBytes: bytes })).status).toBe(
      "ok",
    );
    const over = await resolveLock(resolution, { dependencies: { a: "1" } }, signal, { maxTreeBytes: bytes - 1 });
    expect(over).toMatchObject({ status: "error", kind: "too-large" });
  });

  it("stops fetching a tree's tarballs once what came in is past MAX_TREE_UNPACKED_BYTES", async () => {
    const wide: Record<string, FakePackage> = {
      root: {
        versions: {
          "1.0.0": { dependencies: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, "1"])) },
        },
      },
    };
    for (let i = 0; i < 30; i++)
      wide[`p${i}`] = { versions: { "1.0.0": { files: { "index.js": "x".repeat(10_000) } } } };
    const { fake, resolution } = setup(wide);
    const over = await resolveLock(resolution, { dependencies: { root: "1" } }, new AbortController().signal, {
      maxTreeBytes: 25_000,
    });
    expect(over).toMatchObject({ status: "error", kind: "too-large" });
    // Six at a time: the lanes under way finish, no new one starts.
    expect(fake.asked.filter((url) => url.endsWith(".tgz")).length).toBeLessThan(15);
  });

  it("answers a broken lock as invalid, and a resolution past its deadline as a time-out", async () => {
    const { resolve, resolution } = setup(CHAIN);
    expect(await resolve({ a: "1" }, { lock: "{" })).toMatchObject({ status: "error", kind: "invalid" });
    const late = new AbortController();
    late.abort();
    expect(await resolveLock(resolution, { dependencies: { a: "1" } }, late.signal)).toMatchObject({
      status: "error",
      kind: "registry-timeout",
    });
  });
});

describe("storedPackageSource", () => {
  it("answers a package problem as data, never a throw", async () => {
    const { source } = setup(CHAIN);
    const files = await source.files({
      name: "gone",
      version: "1.0.0",
      resolved: `${FAKE_REGISTRY}gone/-/gone-1.0.0.tgz`,
      integrity: await integrityOf(new Uint8Array([1])),
    });
    expect(files).toMatchObject({ ok: false, kind: "unknown-package" });
  });
});
