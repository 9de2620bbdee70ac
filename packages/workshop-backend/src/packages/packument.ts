/**
 * The parts of a registry's abbreviated packument (`application/vnd.npm.install-v1+json`) the resolver
 * uses, checked: a registry answering something else is "registry-garbage", named, never a crash deeper
 * in. Only the chosen version's manifest is checked in full, so a packument with one odd old version
 * still resolves to its good ones.
 */

import validVersion from "semver/functions/valid.js";
import * as v from "valibot";
import { PackageError } from "./package-error.ts";

const Strings = v.record(v.string(), v.string());

const PackumentSchema = v.object({
  "dist-tags": v.optional(Strings, {}),
  versions: v.record(v.string(), v.unknown()),
});

const DistSchema = v.object({ tarball: v.string(), integrity: v.optional(v.string()) });

const VersionManifestSchema = v.object({
  version: v.string(),
  dependencies: v.optional(Strings),
  optionalDependencies: v.optional(Strings),
  peerDependencies: v.optional(Strings),
  peerDependenciesMeta: v.optional(v.record(v.string(), v.object({ optional: v.optional(v.boolean()) }))),
  dist: DistSchema,
  deprecated: v.optional(v.unknown()),
});

export interface Packument {
  name: string;
  distTags: Readonly<Record<string, string>>;
  /** Every version the registry lists (not checked yet: `versionManifest` checks the one chosen). */
  versions: Readonly<Record<string, unknown>>;
}

export interface VersionManifest {
  name: string;
  version: string;
  dependencies: Readonly<Record<string, string>>;
  optionalDependencies: Readonly<Record<string, string>>;
  peerDependencies: Readonly<Record<string, string>>;
  /** Peer dependencies marked optional in `peerDependenciesMeta`. */
  optionalPeers: ReadonlySet<string>;
  tarball: string;
  integrity: string;
}

const SHA512 = /^sha512-[A-Za-z0-9+/]{86}==$/;

function garbage(name: string, what: string): PackageError {
  return new PackageError("registry-garbage", `The registry's answer for ${name} is not a packument: ${what}.`, name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value`'s own fields among `keys`, or `value` itself when it is not an object (its check refuses it). */
function ownFields(value: unknown, keys: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(value, key)) kept[key] = value[key];
  return kept;
}

const MANIFEST_FIELDS = Object.keys(VersionManifestSchema.entries);
const DIST_FIELDS = Object.keys(DistSchema.entries);

/** Of a version's manifest, what `versionManifest` checks; the rest (a hostile registry's padding too) is not kept. */
function resolverFields(manifest: unknown): unknown {
  const kept = ownFields(manifest, MANIFEST_FIELDS);
  if (isRecord(kept) && Object.hasOwn(kept, "dist")) kept.dist = ownFields(kept.dist, DIST_FIELDS);
  return kept;
}

/** The packument in `body` (the registry's bytes), checked. */
export function parsePackument(name: string, body: Uint8Array): Packument {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body));
  } catch {
    throw garbage(name, "it is not JSON");
  }
  const checked = v.safeParse(PackumentSchema, json);
  if (!checked.success) {
    const at = checked.issues[0].path?.map((item) => String(item.key)).join(".") ?? "the top";
    throw garbage(name, `${at} is not what npm registries send`);
  }
  // A key that is not a version is no version (npm skips it too); sorting or matching it would throw.
  const versions: Record<string, unknown> = {};
  for (const [version, manifest] of Object.entries(checked.output.versions))
    if (validVersion(version) === version) versions[version] = resolverFields(manifest);
  return { name, distTags: checked.output["dist-tags"], versions };
}

/** One version's manifest from the packument, checked (only the version the resolver chose). */
export function versionManifest(packument: Packument, version: string): VersionManifest {
  const { name } = packument;
  const checked = v.safeParse(VersionManifestSchema, packument.versions[version]);
  if (!checked.success) throw garbage(name, `version ${version} lacks a valid "dist" or "dependencies"`);
  const manifest = checked.output;
  const integrity = manifest.dist.integrity?.split(/\s+/).find((hash) => SHA512.test(hash));
  if (!integrity)
    throw new PackageError(
      "bad-package",
      `${name}@${version} has no sha512 integrity in the registry, so its tarball cannot be verified: pick another version.`,
      name,
    );
  return {
    name,
    version,
    dependencies: manifest.dependencies ?? {},
    optionalDependencies: manifest.optionalDependencies ?? {},
    peerDependencies: manifest.peerDependencies ?? {},
    optionalPeers: new Set(
      Object.entries(manifest.peerDependenciesMeta ?? {})
        .filter(([, meta]) => meta.optional === true)
        .map(([peer]) => peer),
    ),
    tarball: manifest.dist.tarball,
    integrity,
  };
}
