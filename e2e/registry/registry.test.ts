/** The registry harness itself: what it serves is what an npm client (and the Workshop) would get. */

import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { MAX_PACKAGE_UNPACKED_BYTES } from "@gadgets/workshop-shared/limits";
import { extract } from "tar-stream";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type FixtureFolder,
  publishFixtures,
  publishOversized,
  publishUnsafeTar,
  publishWrongIntegrity,
} from "./fixtures.ts";
import type { PublishedVersion } from "./publish.ts";
import {
  connectRegistry,
  fetchPackument,
  type Packument,
  startRegistry,
  type TestRegistry,
} from "./registry-server.ts";

interface Entry {
  name: string;
  type: string;
  linkname?: string | null;
  size: number;
}

async function entriesOf(tgz: Uint8Array): Promise<Entry[]> {
  const reader = extract();
  const entries: Entry[] = [];
  reader.on("entry", (header, stream, next) => {
    let size = 0;
    stream.on("data", (chunk: unknown) => {
      size += (chunk as Uint8Array).length;
    });
    stream.on("end", () => {
      entries.push({ name: header.name, type: header.type ?? "file", linkname: header.linkname, size });
      next();
    });
  });
  const finished = new Promise<void>((done, failed) => {
    reader.on("finish", () => done());
    reader.on("error", failed);
  });
  reader.end(gunzipSync(tgz));
  await finished;
  return entries;
}

function distOf(packument: Packument, version: string) {
  const found = packument.versions[version];
  if (!found) throw new Error(`${packument.name} has no version ${version}.`);
  return found.dist;
}

const sha512 = (bytes: Uint8Array) => `sha512-${createHash("sha512").update(bytes).digest("base64")}`;

describe("a public test registry", () => {
  let registry: TestRegistry;
  let published: Record<FixtureFolder, PublishedVersion>;
  beforeAll(async () => {
    registry = await startRegistry();
    published = await publishFixtures(registry);
  });
  afterAll(() => registry?.stop());

  it("serves every fixture's packument, and tarballs whose sha512 is the packument's integrity", async () => {
    for (const version of Object.values(published)) {
      const packument = await registry.packument(version.name);
      const dist = distOf(packument, version.version);
      expect(dist.integrity).toBe(version.integrity);
      const tarball = await fetch(dist.tarball);
      expect(tarball.status).toBe(200);
      const bytes = new Uint8Array(await tarball.arrayBuffer());
      expect(sha512(bytes)).toBe(dist.integrity);
    }
  });

  it("keeps both versions of fx-chain-c, the later one latest, and the scoped name under its scope", async () => {
    const chain = await registry.packument("fx-chain-c");
    expect(Object.keys(chain.versions).sort()).toEqual(["1.0.0", "2.0.0"]);
    expect(chain["dist-tags"].latest).toBe("2.0.0");
    const scoped = await registry.packument("@fixtures/scoped");
    expect(distOf(scoped, "1.2.3").tarball).toBe(`${registry.url}@fixtures/scoped/-/scoped-1.2.3.tgz`);
    const types = await registry.packument("@types/fx-untyped");
    expect(types["dist-tags"].latest).toBe("2.0.1");
  });

  it("answers the abbreviated packument npm asks for", async () => {
    const response = await fetch(`${registry.url}fx-zod`, {
      headers: { accept: "application/vnd.npm.install-v1+json" },
    });
    expect(response.headers.get("content-type")).toContain("application/vnd.npm.install-v1+json");
    const body = (await response.json()) as { versions: Record<string, { dist: { integrity: string } }> };
    expect(body.versions["4.1.2"]?.dist.integrity).toBe(published["fx-zod"].integrity);
  });

  it("packs fixture folders as npm does, under package/", async () => {
    const names = (await entriesOf(published["fx-dual"].tarball)).map((entry) => entry.name);
    expect(names).toContain("package/package.json");
    expect(names).toContain("package/out/workerd.mjs");
    expect(names.every((name) => name.startsWith("package/"))).toBe(true);
  });

  it("publishes a wrong integrity as told: the packument's differs from the bytes'", async () => {
    const bad = await publishWrongIntegrity(registry);
    const dist = distOf(await registry.packument("fx-bad-integrity"), "1.0.0");
    expect(dist.integrity).toBe(bad.publishedIntegrity);
    const bytes = new Uint8Array(await (await fetch(dist.tarball)).arrayBuffer());
    expect(sha512(bytes)).toBe(bad.integrity);
    expect(bad.integrity).not.toBe(bad.publishedIntegrity);
  });

  it("makes an oversized package small to send and exactly the size asked once unpacked", async () => {
    const over = await publishOversized(registry);
    expect(over.tarball.length).toBeLessThan(100_000);
    const unpacked = (await entriesOf(over.tarball)).reduce((sum, entry) => sum + entry.size, 0);
    expect(unpacked).toBe(MAX_PACKAGE_UNPACKED_BYTES + 1);
    const atLimit = await publishOversized(registry, {
      name: "fx-at-limit",
      unpackedBytes: MAX_PACKAGE_UNPACKED_BYTES,
    });
    expect((await entriesOf(atLimit.tarball)).reduce((sum, entry) => sum + entry.size, 0)).toBe(
      MAX_PACKAGE_UNPACKED_BYTES,
    );
  });

  it("serves crafted tars with ../, absolute, symlink and hard-link entries byte for byte", async () => {
    const expected = {
      dotdot: { name: "package/../../escaped.js", type: "file" },
      absolute: { name: "/tmp/absolute.js", type: "file" },
      symlink: { name: "package/link.js", type: "symlink", linkname: "/etc/passwd" },
      hardlink: { name: "package/hard.js", type: "link", linkname: "package/index.js" },
    } as const;
    for (const [kind, entry] of Object.entries(expected)) {
      const unsafe = await publishUnsafeTar(registry, kind as keyof typeof expected);
      const dist = distOf(await registry.packument(`fx-unsafe-${kind}`), "1.0.0");
      const served = new Uint8Array(await (await fetch(dist.tarball)).arrayBuffer());
      expect(sha512(served)).toBe(unsafe.integrity);
      expect(await entriesOf(served)).toContainEqual(expect.objectContaining(entry));
    }
  });
});

describe("private test registries", () => {
  let first: TestRegistry;
  let second: TestRegistry;
  beforeAll(async () => {
    [first, second] = await Promise.all([startRegistry({ private: true }), startRegistry({ private: true })]);
    await first.publish({ packageJson: { name: "fx-secret", version: "1.0.0" }, entries: [] });
  });
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  it("refuses packuments and tarballs without its token, and serves them with it", async () => {
    expect(first.token).toBeTruthy();
    expect((await fetch(`${first.url}fx-secret`)).status).toBe(401);
    const packument = await first.packument("fx-secret");
    const tarball = distOf(packument, "1.0.0").tarball;
    expect((await fetch(tarball)).status).toBe(401);
    expect((await fetch(tarball, { headers: { authorization: `Bearer ${first.token}` } })).status).toBe(200);
  });

  it("refuses another registry's token", async () => {
    expect(first.url).not.toBe(second.url);
    await expect(fetchPackument({ ...second, token: first.token }, "fx-secret")).rejects.toThrow(/401/);
  });
});

describe("the suite's registry (started by the global setup)", () => {
  it("holds the fixtures", async () => {
    const suite = connectRegistry(inject("registry"));
    const packument = await suite.packument("fx-esm");
    expect(packument["dist-tags"].latest).toBe("1.0.0");
  });
});
