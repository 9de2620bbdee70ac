/**
 * The fixture packages (`e2e/fixtures/packages/<folder>`, each a small source folder with its
 * package.json) and the bad ones, made at test time so nothing big or unsafe is committed.
 */

import { fileURLToPath } from "node:url";
import { MAX_PACKAGE_UNPACKED_BYTES } from "@gadgets/workshop-shared/limits";
import type { PackageJson, PublishedVersion } from "./publish.ts";
import type { RegistryHandle } from "./registry-server.ts";
import type { TarEntry } from "./tarball.ts";

export const FIXTURE_PACKAGES_DIR = fileURLToPath(new URL("../fixtures/packages/", import.meta.url));

/**
 * Folder → what it is. Published in this order (a version conflict needs both fx-chain-c versions;
 * the later one, 2.0.0, is `latest`).
 */
export const FIXTURE_FOLDERS = {
  "fx-esm": "fx-esm@1.0.0: ESM only (`type: module`, `exports` a string), a second module",
  "fx-cjs": "fx-cjs@1.0.0: CommonJS only, requires a sibling and data.json",
  "fx-dual":
    "fx-dual@1.0.0: exports conditions workerd/worker/browser/import/require/default (each answers its name), subpath ./mini",
  "fixtures-scoped": "@fixtures/scoped@1.2.3",
  "fx-chain-a": "fx-chain-a@1.0.0 → fx-chain-b ^1",
  "fx-chain-b": "fx-chain-b@1.0.0 → fx-chain-c ^1",
  "fx-chain-c-1": 'fx-chain-c@1.0.0 (c() answers "c@1")',
  "fx-chain-c-2": 'fx-chain-c@2.0.0 (c() answers "c@2"): with fx-chain-a and fx-chain-c ^2, v1 must nest',
  "fx-cycle-a": "fx-cycle-a@1.0.0 → fx-cycle-b ^1",
  "fx-cycle-b": "fx-cycle-b@1.0.0 → fx-cycle-a ^1 (a cycle)",
  "fx-zod": "fx-zod@4.1.2: its own index.d.ts (`types` and an `exports` types condition); z.object/string/number",
  "fx-untyped": "fx-untyped@2.0.0: CommonJS, no declarations",
  "types-fx-untyped": "@types/fx-untyped@2.0.1: slugify(text: string): string",
  "fx-sourcemap": "fx-sourcemap@1.0.0: out/index.js + source map to src/index.ts; explode() throws three calls deep",
  "fx-reads-fs": "fx-reads-fs@1.0.0: reads data.txt with node:fs at import",
  "fx-native": "fx-native@1.0.0: requires build/Release/addon.node",
  "fx-main-nowhere": "fx-main-nowhere@1.0.0: main ./lib/missing.js is not in the tarball",
  "fx-exports-nowhere": "fx-exports-nowhere@1.0.0: exports ./out/missing.js is not in the tarball",
} as const;

export type FixtureFolder = keyof typeof FIXTURE_FOLDERS;

export const fixtureDir = (folder: FixtureFolder): string => `${FIXTURE_PACKAGES_DIR}${folder}`;

/** Publishes every fixture folder; keyed by folder. */
export async function publishFixtures(registry: RegistryHandle): Promise<Record<FixtureFolder, PublishedVersion>> {
  const published: Partial<Record<FixtureFolder, PublishedVersion>> = {};
  for (const folder of Object.keys(FIXTURE_FOLDERS) as FixtureFolder[])
    published[folder] = await registry.publish({ dir: fixtureDir(folder) });
  return published as Record<FixtureFolder, PublishedVersion>;
}

const manifestEntry = (packageJson: PackageJson): TarEntry => ({
  type: "file",
  name: "package/package.json",
  content: JSON.stringify(packageJson, null, 2),
});

const cjsPackage = (name: string, version = "1.0.0"): PackageJson => ({ name, version, main: "index.js" });

/** fx-bad-integrity@1.0.0: sound bytes, but the packument's integrity is that of other bytes. */
export function publishWrongIntegrity(registry: RegistryHandle, name = "fx-bad-integrity"): Promise<PublishedVersion> {
  const packageJson = cjsPackage(name);
  return registry.publish({
    packageJson,
    entries: [manifestEntry(packageJson), { type: "file", name: "package/index.js", content: "exports.ok = true;\n" }],
    tweak: { integrity: `sha512-${Buffer.alloc(64, 7).toString("base64")}` },
  });
}

/**
 * A package whose one big file makes it `unpackedBytes` unpacked (its package.json counted): zeros,
 * so the tarball stays a few KiB. Defaults to one byte over MAX_PACKAGE_UNPACKED_BYTES.
 */
export function publishOversized(
  registry: RegistryHandle,
  options: { name?: string; unpackedBytes?: number } = {},
): Promise<PublishedVersion> {
  const packageJson = cjsPackage(options.name ?? "fx-too-big");
  const manifest = manifestEntry(packageJson);
  const index = "module.exports = 1;\n";
  const manifestBytes = Buffer.byteLength(manifest.type === "file" ? String(manifest.content) : "");
  const filler = (options.unpackedBytes ?? MAX_PACKAGE_UNPACKED_BYTES + 1) - manifestBytes - index.length;
  if (filler < 0) throw new Error("publishOversized: unpackedBytes is smaller than the package's own files.");
  return registry.publish({
    packageJson,
    entries: [
      manifest,
      { type: "file", name: "package/index.js", content: index },
      { type: "file", name: "package/filler.bin", content: new Uint8Array(filler) },
    ],
  });
}

export type UnsafeTarKind = "dotdot" | "absolute" | "symlink" | "hardlink";

const UNSAFE_ENTRIES: Record<UnsafeTarKind, TarEntry> = {
  dotdot: { type: "file", name: "package/../../escaped.js", content: "module.exports = 'escaped';\n" },
  absolute: { type: "file", name: "/tmp/absolute.js", content: "module.exports = 'absolute';\n" },
  symlink: { type: "symlink", name: "package/link.js", linkname: "/etc/passwd" },
  hardlink: { type: "link", name: "package/hard.js", linkname: "package/index.js" },
};

/** fx-unsafe-<kind>@1.0.0: a sound package plus one entry no extractor may follow. */
export function publishUnsafeTar(registry: RegistryHandle, kind: UnsafeTarKind): Promise<PublishedVersion> {
  const packageJson = cjsPackage(`fx-unsafe-${kind}`);
  return registry.publish({
    packageJson,
    entries: [
      manifestEntry(packageJson),
      { type: "file", name: "package/index.js", content: "module.exports = 'safe';\n" },
      UNSAFE_ENTRIES[kind],
    ],
  });
}
