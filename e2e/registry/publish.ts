/**
 * Publishing through the registry's real API: the body `npm publish` sends (`PUT /<name>`: a packument
 * with the one new version and its tarball as a base64 attachment). `integrity` and `shasum` are the
 * client's to compute, as with npm, so a test can publish a wrong one on purpose.
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RegistryAddress } from "./registry-server.ts";
import { folderEntries, type TarEntry, tarball } from "./tarball.ts";

export interface PackageJson {
  name: string;
  version: string;
  [key: string]: unknown;
}

export type PublishSource =
  /** A fixture folder (it holds its package.json), packed now. */
  | { dir: string; tweak?: VersionTweak }
  /** Entries of a tarball made now; `packageJson` is what the packument says (it need not be among them). */
  | { packageJson: PackageJson; entries: readonly TarEntry[]; tweak?: VersionTweak }
  /** Ready bytes. */
  | { packageJson: PackageJson; tarball: Uint8Array; tweak?: VersionTweak };

/** What the packument's version says, changed after the tarball is made (e.g. a wrong integrity). */
export interface VersionTweak {
  integrity?: string;
  /** Fields merged into the version's manifest (not into the tarball's package.json). */
  manifest?: Record<string, unknown>;
  /** The dist-tag to publish under (npm's default: latest). */
  tag?: string;
}

export interface PublishedVersion {
  name: string;
  version: string;
  /** The integrity of the bytes published (what a correct packument says). */
  integrity: string;
  /** The integrity the packument says (differs from `integrity` only when tweaked). */
  publishedIntegrity: string;
  tarball: Uint8Array;
}

/** A name as npm clients put it in a path: a scoped name's slash becomes %2f. */
export function packagePath(name: string): string {
  return name.startsWith("@") ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

export function sha512Integrity(bytes: Uint8Array): string {
  return `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
}

export async function publishPackage(registry: RegistryAddress, source: PublishSource): Promise<PublishedVersion> {
  const { packageJson, bytes } = await materialize(source);
  const { name, version } = packageJson;
  const integrity = sha512Integrity(bytes);
  const publishedIntegrity = source.tweak?.integrity ?? integrity;
  const fileName = `${name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name}-${version}.tgz`;
  const tag = source.tweak?.tag ?? "latest";
  const body = {
    _id: name,
    name,
    description: typeof packageJson.description === "string" ? packageJson.description : "",
    "dist-tags": { [tag]: version },
    versions: {
      [version]: {
        ...packageJson,
        ...source.tweak?.manifest,
        _id: `${name}@${version}`,
        dist: {
          integrity: publishedIntegrity,
          shasum: createHash("sha1").update(bytes).digest("hex"),
          tarball: new URL(`${name}/-/${fileName}`, registry.url).href,
        },
      },
    },
    access: null,
    _attachments: {
      [`${name}-${version}.tgz`]: {
        content_type: "application/octet-stream",
        data: Buffer.from(bytes).toString("base64"),
        length: bytes.length,
      },
    },
  };
  const response = await fetch(new URL(packagePath(name), registry.url), {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${registry.publishToken}` },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`Publishing ${name}@${version} failed: ${response.status} ${await response.text()}`);
  return { name, version, integrity, publishedIntegrity, tarball: bytes };
}

async function materialize(source: PublishSource): Promise<{ packageJson: PackageJson; bytes: Uint8Array }> {
  if ("dir" in source) {
    const packageJson = JSON.parse(readFileSync(join(source.dir, "package.json"), "utf8")) as PackageJson;
    return { packageJson, bytes: await tarball(folderEntries(source.dir)) };
  }
  if ("entries" in source) return { packageJson: source.packageJson, bytes: await tarball(source.entries) };
  return { packageJson: source.packageJson, bytes: source.tarball };
}
