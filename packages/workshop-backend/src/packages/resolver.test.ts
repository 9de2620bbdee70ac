import type { GadgetLock } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import { lockText, parseLock } from "./lock-text.ts";
import { MAX_CONCURRENT_PACKUMENT_FETCHES, MAX_VERSION_RANGE_CHARS } from "@gadgets/workshop-shared/limits";
import { resolveTree, type ResolveTreeInput } from "./resolver.ts";
import { FAKE_REGISTRY, type FakePackage, FakeRegistry } from "./testing/fake-registry.ts";
import { fakeRegistryClient } from "./testing/fake-registry-client.ts";
import { packageFailure } from "./testing/package-failure.ts";

function setup(packages: Record<string, FakePackage>) {
  const fake = new FakeRegistry(packages);
  // A client per resolution, as the Workshop makes one: its packument cache lasts one resolution.
  const resolve = (roots: Record<string, string>, more: Partial<ResolveTreeInput> = {}) =>
    resolveTree({ roots, registry: fakeRegistryClient(fake), private: false, ...more });
  return { fake, resolve };
}

const versions = (tree: Record<string, { version: string }>) =>
  Object.fromEntries(Object.entries(tree).map(([path, entry]) => [path, entry.version]));

describe("resolveTree", () => {
  it("picks the newest version in range, preferring the latest tag, and locks tarball and integrity", async () => {
    const { resolve } = setup({
      zod: { versions: { "4.0.0": {}, "4.1.0": {}, "4.2.0-beta.1": {}, "5.0.0": {} }, distTags: { latest: "4.1.0" } },
      "date-fns": { versions: { "3.0.0": {}, "4.0.0": {}, "4.1.0": {} }, distTags: { latest: "3.0.0" } },
    });
    const tree = await resolve({ zod: "^4.0.0", "date-fns": "4" });
    expect(versions(tree)).toEqual({ "node_modules/date-fns": "4.1.0", "node_modules/zod": "4.1.0" });
    expect(tree["node_modules/zod"]).toMatchObject({
      name: "zod",
      resolved: `${FAKE_REGISTRY}zod/-/zod-4.1.0.tgz`,
      integrity: expect.stringMatching(/^sha512-/),
    });
  });

  it("hoists transitive dependencies and nests a conflicting version under the package that needs it", async () => {
    const { resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { c: "^1.0.0", b: "^1.0.0" } } } },
      b: { versions: { "1.0.0": { dependencies: { c: "^2.0.0" } } } },
      c: { versions: { "1.0.0": {}, "2.0.0": { dependencies: { d: "1" } } } },
      d: { versions: { "1.0.0": {} } },
    });
    const tree = await resolve({ a: "1" });
    expect(versions(tree)).toEqual({
      "node_modules/a": "1.0.0",
      "node_modules/b": "1.0.0",
      "node_modules/c": "1.0.0",
      "node_modules/b/node_modules/c": "2.0.0",
      "node_modules/d": "1.0.0",
    });
  });

  it("reuses a version already on the lookup path when it satisfies the range", async () => {
    const { fake, resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { shared: "^1.0.0" } } } },
      shared: { versions: { "1.2.0": {}, "1.3.0": {} }, distTags: { latest: "1.2.0" } },
    });
    const tree = await resolve({ a: "1", shared: "1.2.0" });
    expect(versions(tree)).toEqual({ "node_modules/a": "1.0.0", "node_modules/shared": "1.2.0" });
    expect(fake.asked.filter((url) => url.endsWith("/shared"))).toHaveLength(1);
  });

  it("gives the same lock text for the same input", async () => {
    const packages = {
      a: { versions: { "1.0.0": { dependencies: { b: "1", c: "1" } } } },
      b: { versions: { "1.0.0": {} } },
      c: { versions: { "1.0.0": {} } },
    };
    const once = lockText({
      lockfileVersion: 1,
      dependencies: { a: "1" },
      packages: await setup(packages).resolve({ a: "1" }),
    });
    const twice = lockText({
      lockfileVersion: 1,
      dependencies: { a: "1" },
      packages: await setup(packages).resolve({ a: "1" }),
    });
    expect(twice).toBe(once);
    expect(once.endsWith("}\n")).toBe(true);
    expect(parseLock(once).packages["node_modules/b"]?.version).toBe("1.0.0");
  });

  it("keeps locked versions that still satisfy their ranges without asking the registry, unless updated", async () => {
    const { fake, resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { b: "^1.0.0" } }, "1.1.0": { dependencies: { b: "^1.0.0" } } } },
      b: { versions: { "1.0.0": {}, "1.5.0": {} } },
    });
    const first = await resolve({ a: "1" });
    const lock: GadgetLock = {
      lockfileVersion: 1,
      dependencies: { a: "1" },
      packages: {
        ...first,
        "node_modules/a": { ...(first["node_modules/a"] as GadgetLock["packages"][string]), version: "1.0.0" },
      },
    };
    fake.requests.length = 0;
    expect(versions(await resolve({ a: "1" }, { lock }))).toEqual({
      "node_modules/a": "1.0.0",
      "node_modules/b": "1.5.0",
    });
    expect(fake.requests).toEqual([]);
    expect(versions(await resolve({ a: "1" }, { lock, update: ["a"] }))["node_modules/a"]).toBe("1.1.0");
    expect(versions(await resolve({ a: "1" }, { lock, update: true }))["node_modules/a"]).toBe("1.1.0");
    // A range that no longer takes the locked version moves it.
    expect(versions(await resolve({ a: "~1.1.0" }, { lock }))["node_modules/a"]).toBe("1.1.0");
  });

  it("follows required peers, not optional dependencies or optional peers", async () => {
    const { resolve } = setup({
      plugin: {
        versions: {
          "1.0.0": {
            peerDependencies: { host: "1", maybe: "1" },
            optionalDependencies: { "native-x64": "1" },
            manifest: { peerDependenciesMeta: { maybe: { optional: true } } },
          },
        },
      },
      host: { versions: { "1.0.0": {} } },
    });
    const tree = await resolve({ plugin: "1" });
    expect(Object.keys(tree).sort()).toEqual(["node_modules/host", "node_modules/plugin"]);
    expect(tree["node_modules/plugin"]?.dependencies).toEqual({ host: "1" });
  });

  it("marks packages of a workspace's own registry private", async () => {
    const { resolve } = setup({ a: { versions: { "1.0.0": {} } } });
    expect((await resolve({ a: "1" }, { private: true }))["node_modules/a"]?.private).toBe(true);
  });

  it("names an unknown package and a range no version matches", async () => {
    const { resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { ghost: "1" } } } },
      zod: { versions: { "4.1.5": {} } },
    });
    const unknown = await packageFailure(resolve({ a: "1" }));
    expect([unknown.kind, unknown.packageName]).toEqual(["unknown-package", "ghost"]);
    const none = await packageFailure(resolve({ zod: "^9.0.0" }));
    expect([none.kind, none.message]).toEqual([
      "no-matching-version",
      'No version of zod matches "^9.0.0" (asked for by gadget.json); the newest is 4.1.5.',
    ]);
  });

  it("refuses a dependency given as a git URL, naming who asked", async () => {
    const { resolve } = setup({ a: { versions: { "1.0.0": { dependencies: { b: "git+https://x.test/b.git" } } } } });
    const error = await packageFailure(resolve({ a: "1" }));
    expect([error.kind, error.message]).toEqual([
      "bad-package",
      expect.stringMatching(/^a@1\.0\.0 asks for b as "git\+https/),
    ]);
  });

  it("reports a cycle naming its packages", async () => {
    const { resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { b: "1" } } } },
      b: { versions: { "1.0.0": { dependencies: { c: "1" } } } },
      c: { versions: { "1.0.0": { dependencies: { a: "1" } } } },
    });
    const error = await packageFailure(resolve({ a: "1" }));
    expect([error.kind, error.message]).toEqual(["cycle", expect.stringContaining("a → b → c → a")]);
  });

  it("holds MAX_VERSION_RANGE_CHARS for a package's own ranges: N passes, N + 1 is refused before any matching", async () => {
    // "1 … 1" is one range (an intersection of two x-ranges) of any length wanted.
    const range = (length: number) => `1${" ".repeat(length - 2)}1`;
    const { resolve } = setup({
      fits: { versions: { "1.0.0": { dependencies: { b: range(MAX_VERSION_RANGE_CHARS) } } } },
      over: { versions: { "1.0.0": { dependencies: { b: range(MAX_VERSION_RANGE_CHARS + 1) } } } },
      b: { versions: { "1.0.0": {} } },
    });
    expect(versions(await resolve({ fits: "1" }))).toEqual({ "node_modules/b": "1.0.0", "node_modules/fits": "1.0.0" });
    const error = await packageFailure(resolve({ over: "1" }));
    expect(error.kind).toBe("bad-package");
    expect(error.packageName).toBe("over");
    expect(error.message).toMatch(/over@1\.0\.0 asks for b with a version range of 257 characters/);
  });

  it("reads only a packument's own versions: no inherited name, no key that is not a version", async () => {
    const { resolve } = setup({
      odd: { versions: { "1.0.0": {}, "not-a-version": {} }, distTags: { latest: "toString", next: "constructor" } },
    });
    expect(versions(await resolve({ odd: "*" }))).toEqual({ "node_modules/odd": "1.0.0" });
    expect((await packageFailure(resolve({ odd: "next" }))).kind).toBe("no-matching-version");
    expect((await packageFailure(resolve({ odd: "constructor" }))).kind).toBe("no-matching-version");
    // No version matches: the message names the newest real one, never a garbage key.
    expect((await packageFailure(resolve({ odd: "^2" }))).message).toMatch(/the newest is 1\.0\.0\.$/);
  });

  it("holds MAX_LOCKED_PACKAGES: N packages pass, N + 1 are refused", async () => {
    const { resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { b: "1", c: "1" } } } },
      b: { versions: { "1.0.0": {} } },
      c: { versions: { "1.0.0": {} } },
    });
    expect(Object.keys(await resolve({ a: "1" }, { maxPackages: 3 }))).toHaveLength(3);
    const error = await packageFailure(resolve({ a: "1" }, { maxPackages: 2 }));
    expect([error.kind, error.message]).toEqual(["too-large", expect.stringMatching(/more than 2 packages/)]);
  });

  it("refuses a name past MAX_LOCKED_PACKAGES before asking for it, and asks at most MAX_CONCURRENT_PACKUMENT_FETCHES at once", async () => {
    const wide = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`dep${i}`, "1"]));
    const packages: Record<string, FakePackage> = { a: { versions: { "1.0.0": { dependencies: wide(40) } } } };
    for (let i = 0; i < 40; i++) packages[`dep${i}`] = { versions: { "1.0.0": {} } };
    const fake = new FakeRegistry(packages);
    let inFlight = 0;
    let most = 0;
    const counted = {
      origin: FAKE_REGISTRY,
      packument: async (name: string) => {
        most = Math.max(most, ++inFlight);
        await new Promise((done) => setTimeout(done, 1));
        try {
          return await fakeRegistryClient(fake).packument(name);
        } finally {
          inFlight--;
        }
      },
    };
    expect(Object.keys(await resolveTree({ roots: { a: "1" }, registry: counted, private: false }))).toHaveLength(41);
    expect(most).toBe(MAX_CONCURRENT_PACKUMENT_FETCHES);
    const asked = fake.asked.length;
    const error = await packageFailure(
      resolveTree({ roots: { a: "1" }, registry: counted, private: false, maxPackages: 10 }),
    );
    expect([error.kind, error.message]).toEqual(["too-large", expect.stringMatching(/name more than 10 packages/)]);
    // The root, then the level's first names up to the limit: never the other thirty.
    expect(fake.asked.length - asked).toBeLessThanOrEqual(10);
  });

  it("refuses a dependency name the lock could not hold, naming who depends on it", async () => {
    const { resolve } = setup({ a: { versions: { "1.0.0": { dependencies: { "x/../../y": "1" } } } } });
    const error = await packageFailure(resolve({ a: "1" }));
    expect([error.kind, error.packageName, error.message]).toEqual([
      "bad-package",
      "a",
      expect.stringMatching(/^a@1\.0\.0 depends on "x\/\.\.\/\.\.\/y", which is not a package name/),
    ]);
  });

  it("names the newest version by semver, not by the order the registry lists them", async () => {
    const { resolve } = setup({ v: { versions: { "1.0.9": {}, "1.0.10": {}, "1.0.2": {} }, distTags: {} } });
    expect((await packageFailure(resolve({ v: "^2" }))).message).toMatch(/the newest is 1\.0\.10\.$/);
  });

  it("holds MAX_DEPENDENCY_DEPTH: a chain N deep passes, N + 1 is refused", async () => {
    const { resolve } = setup({
      a: { versions: { "1.0.0": { dependencies: { b: "1" } } } },
      b: { versions: { "1.0.0": { dependencies: { c: "1" } } } },
      c: { versions: { "1.0.0": {} } },
    });
    expect(Object.keys(await resolve({ a: "1" }, { maxDepth: 3 }))).toHaveLength(3);
    const error = await packageFailure(resolve({ a: "1" }, { maxDepth: 2 }));
    expect([error.kind, error.message]).toEqual([
      "too-large",
      "The dependency chain gadget → a → b → c is deeper than 2 levels, the limit.",
    ]);
  });
});
