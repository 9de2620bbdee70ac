import { describe, expect, it } from "vitest";
import { versionManifest } from "./packument.ts";
import { FAKE_REGISTRY, FakeRegistry } from "./testing/fake-registry.ts";
import { fakeRegistryClient } from "./testing/fake-registry-client.ts";
import { packageFailure } from "./testing/package-failure.ts";

const registry = () =>
  new FakeRegistry({
    zod: { versions: { "4.1.0": {}, "4.1.5": {} } },
    "@scope/util": { versions: { "1.0.0": { dependencies: { zod: "^4.0.0" } } } },
  });

describe("RegistryClient.packument", () => {
  it("asks for the abbreviated packument, scoped names as @scope%2fname, once per name", async () => {
    const fake = registry();
    const registryClient = fakeRegistryClient(fake);
    const packument = await registryClient.packument("@scope/util");
    await registryClient.packument("@scope/util");
    expect(Object.keys(packument.versions)).toEqual(["1.0.0"]);
    expect(fake.asked).toEqual([`${FAKE_REGISTRY}@scope%2futil`]);
    expect(fake.requests[0]?.headers.get("accept")).toMatch(/^application\/vnd\.npm\.install-v1\+json/);
    expect(versionManifest(packument, "1.0.0").dependencies).toEqual({ zod: "^4.0.0" });
  });

  it("sends a private registry's token as Bearer, to the registry's origin only", async () => {
    const fake = registry();
    await fakeRegistryClient(fake, { token: "s3cret" }).packument("zod");
    expect(fake.requests[0]?.headers.get("authorization")).toBe("Bearer s3cret");
    const elsewhere = new FakeRegistry({}, "https://files.test/");
    elsewhere.overrides.set("/zod.tgz", () => new Response("bytes"));
    await fakeRegistryClient(elsewhere, { token: "s3cret", tarballOrigins: ["https://files.test"] }).tarball(
      "https://files.test/zod.tgz",
      "zod",
      "4.1.0",
    );
    expect(elsewhere.requests[0]?.headers.get("authorization")).toBeNull();
  });

  it("names an unknown package (404)", async () => {
    const error = await packageFailure(fakeRegistryClient(registry()).packument("nope"));
    expect(error.kind).toBe("unknown-package");
    expect(error.packageName).toBe("nope");
    expect(error.message).toMatch(/No package "nope" in the registry https:\/\/registry\.test/);
  });

  it("says a registry that cannot be reached is unreachable", async () => {
    const error = await packageFailure(
      fakeRegistryClient(registry(), {
        fetch: async () => {
          throw new TypeError("connect ECONNREFUSED");
        },
      }).packument("zod"),
    );
    expect(error.kind).toBe("registry-unreachable");
    expect(error.message).toMatch(/could not be reached for zod/);
  });

  it("says a registry that answers 500 or 401 is unreachable, with a hint about the token for 401", async () => {
    const fake = registry();
    fake.overrides.set("/zod", () => new Response("down", { status: 500 }));
    fake.overrides.set("/private", () => new Response("no", { status: 401 }));
    expect((await packageFailure(fakeRegistryClient(fake).packument("zod"))).message).toMatch(/answered 500/);
    expect((await packageFailure(fakeRegistryClient(fake).packument("private"))).message).toMatch(/registry token/);
  });

  it("times out a registry that never answers", async () => {
    const fake = registry();
    fake.overrides.set("/zod", () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) })));
    const error = await packageFailure(fakeRegistryClient(fake, { timeoutMs: 50 }).packument("zod"));
    expect(error.kind).toBe("registry-timeout");
    expect(error.message).toMatch(/did not answer for zod within 0.05 s/);
  });

  it("stops at the resolution's deadline", async () => {
    const deadline = new AbortController();
    deadline.abort();
    const error = await packageFailure(fakeRegistryClient(registry(), { signal: deadline.signal }).packument("zod"));
    expect(error.kind).toBe("registry-timeout");
    expect(error.message).toMatch(/Fetching packages took too long/);
  });

  it("refuses garbage: not JSON, or not a packument", async () => {
    const fake = registry();
    fake.overrides.set("/zod", () => new Response("<html>oops</html>"));
    fake.overrides.set("/odd", () => Response.json({ versions: "many" }));
    const notJson = await packageFailure(fakeRegistryClient(fake).packument("zod"));
    expect([notJson.kind, notJson.message]).toEqual(["registry-garbage", expect.stringMatching(/zod .*not JSON/)]);
    expect((await packageFailure(fakeRegistryClient(fake).packument("odd"))).message).toMatch(
      /odd is not a packument: versions/,
    );
  });

  it("refuses an answer over the size cap (at N it passes, at N + 1 it is refused)", async () => {
    const fake = registry();
    const body = JSON.stringify({ versions: {} });
    fake.overrides.set("/zod", () => new Response(body));
    const size = new TextEncoder().encode(body).byteLength;
    await expect(fakeRegistryClient(fake, { maxResponseBytes: size }).packument("zod")).resolves.toBeDefined();
    const error = await packageFailure(fakeRegistryClient(fake, { maxResponseBytes: size - 1 }).packument("zod"));
    expect(error.kind).toBe("too-large");
  });
});

describe("RegistryClient's packument budget", () => {
  it("takes packuments up to its bytes in all and refuses the one past them, naming it", async () => {
    const fake = registry();
    const body = JSON.stringify({ versions: {} });
    for (const name of ["a", "b"]) fake.overrides.set(`/${name}`, () => new Response(body));
    const both = 2 * new TextEncoder().encode(body).byteLength;
    const client = fakeRegistryClient(fake, { maxPackumentBytes: both });
    await client.packument("a");
    await expect(client.packument("b")).resolves.toBeDefined();
    const tight = fakeRegistryClient(fake, { maxPackumentBytes: both - 1 });
    await tight.packument("a");
    const error = await packageFailure(tight.packument("b"));
    expect([error.kind, error.packageName]).toEqual(["too-large", "b"]);
    expect(error.message).toMatch(/come to over/);
  });

  it("keeps of each version only what the resolver reads", async () => {
    const fake = registry();
    fake.overrides.set(
      "/zod",
      () =>
        new Response(
          JSON.stringify({
            versions: {
              "1.0.0": {
                version: "1.0.0",
                readme: "x".repeat(10_000),
                dist: { tarball: `${FAKE_REGISTRY}zod.tgz`, integrity: "sha512-x", fileCount: 3 },
              },
            },
          }),
        ),
    );
    const packument = await fakeRegistryClient(fake).packument("zod");
    expect(packument.versions["1.0.0"]).toEqual({
      version: "1.0.0",
      dist: { tarball: `${FAKE_REGISTRY}zod.tgz`, integrity: "sha512-x" },
    });
  });
});

describe("versionManifest", () => {
  it("refuses a version without a sha512 integrity", async () => {
    const fake = registry();
    fake.overrides.set("/old", () =>
      Response.json({
        versions: { "1.0.0": { version: "1.0.0", dist: { tarball: "https://x.test/a.tgz", shasum: "ab" } } },
      }),
    );
    const packument = await fakeRegistryClient(fake).packument("old");
    expect(() => versionManifest(packument, "1.0.0")).toThrow(/old@1.0.0 has no sha512 integrity/);
  });

  it("refuses a version whose manifest is malformed", async () => {
    const fake = registry();
    fake.overrides.set("/bad", () => Response.json({ versions: { "1.0.0": { version: "1.0.0", dependencies: 3 } } }));
    const packument = await fakeRegistryClient(fake).packument("bad");
    expect(() => versionManifest(packument, "1.0.0")).toThrow(/version 1.0.0 lacks a valid/);
  });
});

describe("RegistryClient.tarball", () => {
  it("follows a redirect to an allowed URL, and refuses one to a local address", async () => {
    const fake = registry();
    fake.overrides.set("/a.tgz", () => new Response(null, { status: 302, headers: { location: "/b.tgz" } }));
    fake.overrides.set("/b.tgz", () => new Response("tar"));
    fake.overrides.set(
      "/c.tgz",
      () => new Response(null, { status: 302, headers: { location: "http://127.0.0.1/x" } }),
    );
    const bytes = await fakeRegistryClient(fake).tarball(`${FAKE_REGISTRY}a.tgz`, "a", "1.0.0");
    expect(new TextDecoder().decode(bytes)).toBe("tar");
    expect(
      (await packageFailure(fakeRegistryClient(fake).tarball(`${FAKE_REGISTRY}c.tgz`, "c", "1.0.0"))).message,
    ).toMatch(/does not follow: .*this machine/);
  });

  it("follows MAX_REGISTRY_REDIRECTS redirects and refuses one more", async () => {
    const fake = registry();
    for (let i = 0; i < 4; i++)
      fake.overrides.set(
        `/r${i}.tgz`,
        () => new Response(null, { status: 302, headers: { location: `/r${i + 1}.tgz` } }),
      );
    fake.overrides.set("/r4.tgz", () => new Response("end"));
    await expect(fakeRegistryClient(fake).tarball(`${FAKE_REGISTRY}r1.tgz`, "r", "1.0.0")).resolves.toHaveLength(3);
    expect(
      (await packageFailure(fakeRegistryClient(fake).tarball(`${FAKE_REGISTRY}r0.tgz`, "r", "1.0.0"))).message,
    ).toMatch(/more than 3 redirects/);
  });

  it("refuses a tarball URL the rule refuses, before any request", async () => {
    const fake = registry();
    const error = await packageFailure(fakeRegistryClient(fake).tarball("http://example.com/a.tgz", "a", "1.0.0"));
    expect(error.message).toMatch(/a@1.0.0's tarball URL is refused/);
    expect(fake.requests).toEqual([]);
  });

  it("fetches a tarball only from the registry's origin or an added one: a hand-written lock names no other host", async () => {
    const fake = registry();
    fake.overrides.set("/a.tgz", () => new Response("tar"));
    for (const url of [
      "https://elsewhere.test/a.tgz",
      "https://registry.test.evil.test/a.tgz",
      "https://registry.test:8443/a.tgz",
    ]) {
      const error = await packageFailure(fakeRegistryClient(fake, { token: "s3cret" }).tarball(url, "a", "1.0.0"));
      expect(error.kind).toBe("bad-package");
      expect(error.message).toMatch(/is not the workspace's registry \(https:\/\/registry\.test\)/);
      expect(error.message).not.toContain("s3cret");
    }
    expect(fake.requests).toEqual([]);
    const added = new FakeRegistry({}, "https://default.test/");
    added.overrides.set("/a.tgz", () => new Response("tar"));
    const bytes = await fakeRegistryClient(added, {
      token: "s3cret",
      tarballOrigins: ["https://default.test"],
    }).tarball("https://default.test/a.tgz", "a", "1.0.0");
    expect(new TextDecoder().decode(bytes)).toBe("tar");
    expect(added.requests[0]?.headers.get("authorization")).toBeNull();
  });

  it("refuses a tarball over MAX_TARBALL_BYTES while it streams", async () => {
    const fake = registry();
    fake.overrides.set("/big.tgz", () => new Response(new Uint8Array(11)));
    await expect(
      fakeRegistryClient(fake, { maxTarballBytes: 11 }).tarball(`${FAKE_REGISTRY}big.tgz`, "big", "1.0.0"),
    ).resolves.toHaveLength(11);
    const error = await packageFailure(
      fakeRegistryClient(fake, { maxTarballBytes: 10 }).tarball(`${FAKE_REGISTRY}big.tgz`, "big", "1.0.0"),
    );
    expect([error.kind, error.message]).toEqual(["too-large", expect.stringMatching(/big@1.0.0 is over/)]);
  });
});
