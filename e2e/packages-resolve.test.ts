/**
 * Resolving, locking and storing npm packages through the real RPC, against real registries
 * (Verdaccio on loopback, e2e/registry/): a Workshop of its own pointed at the suite's kind of registry
 * with `registry`, workspaces with private registries of their own, and every bad input the resolver
 * refuses, each answered as an outcome naming the package.
 */

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { errorCode, type GadgetLock, type ResolveOutcome } from "@gadgets/workshop-shared";
import {
  MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE,
  MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE,
  MAX_PACKAGE_UNPACKED_BYTES,
} from "@gadgets/workshop-shared/limits";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishOversized, publishUnsafeTar, publishWrongIntegrity } from "./registry/fixtures.ts";
import { type PackagesWorkshop, startPackagesWorkshop } from "./registry/packages-workshop.ts";
import { startRegistry, type TestRegistry } from "./registry/registry-server.ts";

let packages: PackagesWorkshop;
const newSession = () => packages.newSession();

function ok(outcome: ResolveOutcome) {
  if (outcome.status !== "ok") throw new Error(`expected ok, got ${outcome.kind}: ${outcome.message}`);
  return { ...outcome, parsed: JSON.parse(outcome.lock) as GadgetLock };
}

async function thrownCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return errorCode(error) ?? "no code";
  }
  return "no error";
}

/** A loopback HTTP server answering every request with `answer` (garbage, or never). */
async function fakeRegistryServer(
  answer: (response: import("node:http").ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => answer(response));
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

beforeAll(async () => {
  packages = await startPackagesWorkshop({
    dataPrefix: "workshop-packages-",
    publish: async (registry) => {
      await publishWrongIntegrity(registry);
      await publishOversized(registry);
      await publishOversized(registry, { name: "fx-just-fits", unpackedBytes: MAX_PACKAGE_UNPACKED_BYTES });
      for (const kind of ["dotdot", "absolute", "symlink", "hardlink"] as const) await publishUnsafeTar(registry, kind);
    },
    server: { pool: false },
  });
}, 120_000);

afterAll(() => packages?.stop());

describe("resolveDependencies", () => {
  it("locks the tree with each package's tarball and integrity, nesting a conflicting version", async () => {
    const session = await newSession();
    const published = await packages.registry.packument("fx-chain-c");
    const result = ok(
      await session.resolveDependencies({ dependencies: { "fx-chain-a": "^1.0.0", "fx-chain-c": "^2.0.0" } }),
    );
    expect(result.packages.map((p) => `${p.path}@${p.version}`)).toEqual([
      "node_modules/fx-chain-a@1.0.0",
      "node_modules/fx-chain-c@2.0.0",
      "node_modules/fx-chain-b@1.0.0",
      "node_modules/fx-chain-b/node_modules/fx-chain-c@1.0.0",
    ]);
    expect(result.parsed.packages["node_modules/fx-chain-b/node_modules/fx-chain-c"]?.integrity).toBe(
      published.versions["1.0.0"]?.dist.integrity,
    );
    expect(result.lock.endsWith("}\n")).toBe(true);
    // The same input gives the same bytes.
    const again = ok(
      await session.resolveDependencies({ dependencies: { "fx-chain-c": "^2.0.0", "fx-chain-a": "^1.0.0" } }),
    );
    expect(again.lock).toBe(result.lock);
  });

  it("says which registry the workspace uses, the Workshop's default until it sets one", async () => {
    const session = await newSession();
    expect(await session.getRegistry()).toEqual({ url: packages.registry.url, isDefault: true, hasToken: false });
  });

  it("adds @types for a package without declarations, and serves the tree's declarations and files", async () => {
    const session = await newSession();
    const result = ok(await session.resolveDependencies({ dependencies: { "fx-untyped": "2", "fx-zod": "^4.1.0" } }));
    expect(result.parsed.packages["node_modules/@types/fx-untyped"]).toMatchObject({ version: "2.0.1", types: true });
    const types = await session.packageTypes(result.lock);
    const paths = types.files.map((file) => file.path);
    expect(paths).toContain("node_modules/fx-zod/index.d.ts");
    expect(paths).toContain("node_modules/@types/fx-untyped/index.d.ts");
    expect(paths).toContain("node_modules/fx-untyped/package.json");
    const file = await session.packageFile(result.lock, "node_modules/fx-zod/package.json");
    expect(JSON.parse(file.content)).toMatchObject({ name: "fx-zod", version: "4.1.2" });
    expect(await thrownCode(session.packageFile(result.lock, "node_modules/fx-zod/nope.js"))).toBe("NOT_FOUND");
    expect(await thrownCode(session.packageFile(result.lock, "../etc/passwd"))).toBe("INVALID_ARGUMENT");
    expect(await thrownCode(session.packageTypes("{"))).toBe("INVALID_ARGUMENT");
  });

  it("answers the newest matching version for a quick fix", async () => {
    const session = await newSession();
    expect(await session.lookupPackage("fx-chain-c")).toEqual({ name: "fx-chain-c", version: "2.0.0" });
    expect(await session.lookupPackage("fx-chain-c", "^1")).toEqual({ name: "fx-chain-c", version: "1.0.0" });
    expect(await thrownCode(session.lookupPackage("fx-nothing-here"))).toBe("NOT_FOUND");
    expect(await thrownCode(session.lookupPackage("Not A Name"))).toBe("INVALID_ARGUMENT");
  });

  it("keeps a locked tree working from the store once its registry is gone", async () => {
    const own = await startRegistry();
    let stopped = false;
    try {
      await own.publish({
        packageJson: { name: "fx-gone-later", version: "1.0.0", main: "index.js" },
        entries: [
          {
            type: "file",
            name: "package/package.json",
            content: JSON.stringify({ name: "fx-gone-later", version: "1.0.0", main: "index.js" }),
          },
          { type: "file", name: "package/index.js", content: "module.exports = 'still here';\n" },
        ],
      });
      const session = await newSession();
      await session.setRegistry({ url: own.url });
      const first = ok(await session.resolveDependencies({ dependencies: { "fx-gone-later": "1" } }));
      await own.stop();
      stopped = true;
      const again = ok(await session.resolveDependencies({ dependencies: { "fx-gone-later": "1" }, lock: first.lock }));
      expect(again.lock).toBe(first.lock);
      const file = await session.packageFile(first.lock, "node_modules/fx-gone-later/index.js");
      expect(file.content).toBe("module.exports = 'still here';\n");
      // Without the lock, the registry is needed, and it is gone.
      const fresh = await session.resolveDependencies({ dependencies: { "fx-gone-later": "1" } });
      expect(fresh).toMatchObject({ status: "error", kind: "registry-unreachable", package: "fx-gone-later" });
    } finally {
      if (!stopped) await own.stop();
    }
  });
});

describe("private registries", () => {
  let one: TestRegistry;
  let two: TestRegistry;
  beforeAll(async () => {
    one = await startRegistry({ private: true });
    two = await startRegistry({ private: true });
    for (const [handle, name] of [
      [one, "fx-private-one"],
      [two, "fx-private-two"],
    ] as const) {
      const packageJson = { name, version: "1.0.0", main: "index.js" };
      await handle.publish({
        packageJson,
        entries: [
          { type: "file", name: "package/package.json", content: JSON.stringify(packageJson) },
          { type: "file", name: "package/index.js", content: `module.exports = ${JSON.stringify(name)};\n` },
        ],
      });
    }
  }, 60_000);
  afterAll(async () => {
    await one?.stop();
    await two?.stop();
  });

  it("each workspace resolves from its own registry with its token, and never sees the other's packages", async () => {
    const a = await newSession();
    const b = await newSession();
    const setA = await a.setRegistry({ url: one.url, token: one.token as string });
    await b.setRegistry({ url: two.url, token: two.token as string });
    expect(setA).toEqual({ url: one.url, isDefault: false, hasToken: true });
    expect(JSON.stringify(await a.getRegistry())).not.toContain(one.token as string);

    const lockA = ok(await a.resolveDependencies({ dependencies: { "fx-private-one": "1" } }));
    expect(lockA.parsed.packages["node_modules/fx-private-one"]?.private).toBe(true);
    expect((await a.packageFile(lockA.lock, "node_modules/fx-private-one/index.js")).content).toContain(
      "fx-private-one",
    );
    ok(await b.resolveDependencies({ dependencies: { "fx-private-two": "1" } }));

    // B's registry does not have A's package; A's lock does not open A's store for B.
    expect(await b.resolveDependencies({ dependencies: { "fx-private-one": "1" } })).toMatchObject({
      status: "error",
      kind: "unknown-package",
      package: "fx-private-one",
    });
    expect(await thrownCode(b.packageFile(lockA.lock, "node_modules/fx-private-one/index.js"))).not.toBe("no error");
    // A workspace on the default registry sees nothing of them either.
    const c = await newSession();
    expect(await thrownCode(c.packageFile(lockA.lock, "node_modules/fx-private-one/index.js"))).not.toBe("no error");
  });

  it("charges a workspace's own packages to its quota once, and the default registry's to none", async () => {
    const own = await newSession();
    await own.setRegistry({ url: one.url, token: one.token as string });
    ok(await own.resolveDependencies({ dependencies: { "fx-private-one": "1" } }));
    const charged = (await own.usage()).bytes.packages ?? 0;
    // The unpacked bytes of its package.json and index.js.
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(1024);
    ok(await own.resolveDependencies({ dependencies: { "fx-private-one": "1" } }));
    expect((await own.usage()).bytes.packages).toBe(charged);

    const shared = await newSession();
    ok(await shared.resolveDependencies({ dependencies: { "fx-esm": "1" } }));
    expect((await shared.usage()).bytes.packages).toBe(0);
  });

  it("says a private registry without the token refuses, and back to the default with null", async () => {
    const session = await newSession();
    await session.setRegistry({ url: one.url });
    const outcome = await session.resolveDependencies({ dependencies: { "fx-private-one": "1" } });
    expect(outcome).toMatchObject({ status: "error", kind: "registry-unreachable", package: "fx-private-one" });
    expect(outcome.status === "error" && outcome.message).toMatch(/registry token/);
    expect(await session.setRegistry(null)).toEqual({ url: packages.registry.url, isDefault: true, hasToken: false });
  });

  it("refuses a registry URL that is not https (nor on this machine) as a bad call", async () => {
    const session = await newSession();
    expect(await thrownCode(session.setRegistry({ url: "http://registry.example.com/" }))).toBe("INVALID_ARGUMENT");
    expect(await thrownCode(session.setRegistry({ url: "not a url" }))).toBe("INVALID_ARGUMENT");
  });
});

describe("bad input, each an outcome naming the package", () => {
  const resolveOne = async (name: string, range = "1") =>
    (await newSession()).resolveDependencies({ dependencies: { [name]: range } });

  it("an unknown package, and a range no version matches", async () => {
    expect(await resolveOne("fx-no-such-package")).toMatchObject({
      status: "error",
      kind: "unknown-package",
      package: "fx-no-such-package",
    });
    expect(await resolveOne("fx-chain-c", "^9.0.0")).toMatchObject({
      status: "error",
      kind: "no-matching-version",
      package: "fx-chain-c",
    });
  });

  it("an invalid name or range is a bad call", async () => {
    const session = await newSession();
    expect(await thrownCode(session.resolveDependencies({ dependencies: { "Bad Name": "1" } }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await thrownCode(session.resolveDependencies({ dependencies: { "fx-esm": "not a range!" } }))).toBe(
      "INVALID_ARGUMENT",
    );
  });

  it("a tarball whose integrity does not match", async () => {
    const outcome = await resolveOne("fx-bad-integrity");
    expect(outcome).toMatchObject({ status: "error", kind: "integrity", package: "fx-bad-integrity" });
    expect(outcome.status === "error" && outcome.message).toMatch(/fx-bad-integrity@1\.0\.0/);
  });

  it("a package one byte over the unpacked limit, while one at the limit resolves", async () => {
    expect(await resolveOne("fx-too-big")).toMatchObject({ status: "error", kind: "too-large", package: "fx-too-big" });
    expect((await resolveOne("fx-just-fits")).status).toBe("ok");
  });

  it.each(["dotdot", "absolute", "symlink", "hardlink"])("a tar with a %s entry", async (kind) => {
    expect(await resolveOne(`fx-unsafe-${kind}`)).toMatchObject({
      status: "error",
      kind: "unsafe-tarball",
      package: `fx-unsafe-${kind}`,
    });
  });

  it("a dependency cycle, naming its packages", async () => {
    const outcome = await resolveOne("fx-cycle-a");
    expect(outcome).toMatchObject({ status: "error", kind: "cycle" });
    expect(outcome.status === "error" && outcome.message).toMatch(/fx-cycle-a → fx-cycle-b → fx-cycle-a/);
  });

  it("a registry that is unreachable or answers garbage", async () => {
    const session = await newSession();
    const closed = await fakeRegistryServer(() => {});
    closed.server.close();
    await session.setRegistry({ url: closed.url });
    expect(await session.resolveDependencies({ dependencies: { "fx-esm": "1" } })).toMatchObject({
      status: "error",
      kind: "registry-unreachable",
      package: "fx-esm",
    });
    const garbage = await fakeRegistryServer((response) => response.end("<html>not a registry</html>"));
    try {
      await session.setRegistry({ url: garbage.url });
      expect(await session.resolveDependencies({ dependencies: { "fx-esm": "1" } })).toMatchObject({
        status: "error",
        kind: "registry-garbage",
        package: "fx-esm",
      });
    } finally {
      garbage.server.close();
    }
  });

  it("a registry that never answers times out", { timeout: 40_000 }, async () => {
    const session = await newSession();
    const silent = await fakeRegistryServer(() => {});
    try {
      await session.setRegistry({ url: silent.url });
      expect(await session.resolveDependencies({ dependencies: { "fx-esm": "1" } })).toMatchObject({
        status: "error",
        kind: "registry-timeout",
        package: "fx-esm",
      });
    } finally {
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });

  it("a workspace stuck resolving takes its own slots only: its next one is refused, another workspace resolves and runs", {
    timeout: 60_000,
  }, async () => {
    const stuck = await newSession();
    let asked = 0;
    const silent = await fakeRegistryServer(() => {
      asked++;
    });
    try {
      await stuck.setRegistry({ url: silent.url });
      const hanging = Array.from({ length: MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE }, (_, i) =>
        stuck.resolveDependencies({ dependencies: { [`fx-slow-${i}`]: "1" } }),
      );
      await expect.poll(() => asked, { timeout: 10_000 }).toBe(MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE);
      // N at once run; the N+1st of the same workspace is refused at once, not queued.
      expect(await thrownCode(stuck.resolveDependencies({ dependencies: { "fx-esm": "1" } }))).toBe("RATE_LIMITED");
      // Reads of one package have slots of their own, bounded the same way.
      const lookups = Array.from({ length: MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE }, (_, i) =>
        thrownCode(stuck.lookupPackage(`fx-look-${i}`)),
      );
      const slots = MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE + MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE;
      await expect.poll(() => asked, { timeout: 10_000 }).toBe(slots);
      expect(await thrownCode(stuck.lookupPackage("fx-esm"))).toBe("RATE_LIMITED");

      const other = await newSession();
      expect(await other.lookupPackage("fx-esm")).toMatchObject({ name: "fx-esm" });
      const locked = ok(await other.resolveDependencies({ dependencies: { "fx-esm": "1" } }));
      const draft = await other.createDraft({
        files: [
          {
            path: "gadget.json",
            content: JSON.stringify({ name: "greets", entry: "index.ts", dependencies: { "fx-esm": "1" } }),
          },
          { path: "gadget.lock.json", content: locked.lock },
          {
            path: "index.ts",
            content: `import { greet } from "fx-esm";\nexport default { run: ({ name }: { name: string }) => greet(name) };`,
          },
        ],
      });
      const outcome = await other.runDraft(draft.id, { name: "Ada" });
      expect(outcome.status).toBe("ok");
      expect(asked).toBe(slots);

      for (const outcome of await Promise.all(hanging)) expect(outcome).toMatchObject({ kind: "registry-timeout" });
      for (const code of await Promise.all(lookups)) expect(code).toBe("INVALID_ARGUMENT");
      // Its slots are given back once they end.
      await stuck.setRegistry(null);
      ok(await stuck.resolveDependencies({ dependencies: { "fx-esm": "1" } }));
    } finally {
      silent.server.closeAllConnections();
      silent.server.close();
    }
  });

  it("a hand-written lock naming a tarball off the workspace's registry makes the Workshop fetch nothing", async () => {
    const session = await newSession();
    const asked: string[] = [];
    // On this machine, like the Workshop's own services: the URL rule alone would let it through here.
    const bait = await fakeRegistryServer((response) => response.end("tar"));
    bait.server.on("request", (request) => asked.push(request.url ?? ""));
    try {
      const lock = JSON.stringify({
        lockfileVersion: 1,
        dependencies: { "fx-bait": "1" },
        packages: {
          "node_modules/fx-bait": {
            name: "fx-bait",
            version: "1.0.0",
            resolved: `${bait.url}fx-bait-1.0.0.tgz`,
            integrity: `sha512-${"A".repeat(86)}==`,
          },
        },
      });
      const outcome = await session.resolveDependencies({ dependencies: { "fx-bait": "1" }, lock });
      expect(outcome).toMatchObject({ status: "error", kind: "bad-package", package: "fx-bait" });
      expect(outcome.status === "error" && outcome.message).toMatch(/is not the workspace's registry/);
      expect(await thrownCode(session.packageFile(lock, "node_modules/fx-bait/index.js"))).toBe("INVALID_ARGUMENT");
      expect(await thrownCode(session.packageTypes(lock))).toBe("INVALID_ARGUMENT");
      expect(asked).toEqual([]);
    } finally {
      bait.server.close();
    }
  });

  it("a main or exports pointing nowhere still locks: the loader names it at build time", async () => {
    expect((await resolveOne("fx-main-nowhere")).status).toBe("ok");
    expect((await resolveOne("fx-exports-nowhere")).status).toBe("ok");
  });
});
