/**
 * npm packages on the wire: `dependencies` in `gadget.json` (names and semver ranges, as package.json
 * means them) and the lock, `gadget.lock.json`, the exact tree a gadget runs (written by the Workshop's
 * resolver, read by every build). The lock's `packages` are keyed by install path, as npm's lockfile v3
 * keys them (`node_modules/a`, `node_modules/a/node_modules/b`), so two versions of one name can live in
 * one tree.
 */

import validRange from "semver/ranges/valid.js";
import validVersion from "semver/functions/valid.js";
import * as v from "valibot";
import { MAX_DIRECT_DEPENDENCIES, MAX_LOCKED_PACKAGES, MAX_VERSION_RANGE_CHARS } from "../limits.ts";
import { optionalArgument, shape } from "./objects.ts";

// npm's own rules for new package names: lower case, URL-safe, at most 214 characters, scoped or not.
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;
const MAX_PACKAGE_NAME_LENGTH = 214;

/** Whether `name` is a package name npm would accept today. */
export function isPackageName(name: string): boolean {
  return name.length <= MAX_PACKAGE_NAME_LENGTH && PACKAGE_NAME.test(name);
}

const nameMessage = (issue: v.BaseIssue<unknown>) =>
  `${typeof issue.input === "string" ? JSON.stringify(issue.input.slice(0, 80)) : "A package name"} is not a valid npm package name: use lower case letters, digits, "-", "." and "_", like "zod" or "@scope/name".`;

export const PackageNameSchema = v.pipe(v.string(nameMessage), v.check(isPackageName, nameMessage));

/** A semver range as package.json takes it (`^4.1.0`, `4`, `~1.2`, `>=2 <3`, `*`, `latest` is not one). */
export const VersionRangeSchema = v.pipe(
  v.string('A version range must be a string like "^4.1.0".'),
  v.maxLength(MAX_VERSION_RANGE_CHARS, `A version range is at most ${MAX_VERSION_RANGE_CHARS} characters.`),
  v.check(
    (range) => validRange(range) !== null,
    (issue) =>
      `${JSON.stringify(String(issue.input).slice(0, 80))} is not a semver range: write one like "^4.1.0" or "4".`,
  ),
);

/** `dependencies` in gadget.json: package name → range. */
export const DependenciesSchema = v.pipe(
  v.record(v.string(), v.unknown(), '"dependencies" must be an object like { "zod": "^4.1.0" }.'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const entries = Object.entries(dataset.value);
    if (entries.length > MAX_DIRECT_DEPENDENCIES) {
      addIssue({
        message: `"dependencies" names ${entries.length} packages; the limit is ${MAX_DIRECT_DEPENDENCIES}.`,
      });
      return NEVER;
    }
    const out: Record<string, string> = {};
    for (const [name, range] of entries) {
      if (!isPackageName(name)) {
        addIssue({ message: `"dependencies": ${nameMessage({ input: name } as v.BaseIssue<unknown>)}` });
        return NEVER;
      }
      const checked = v.safeParse(VersionRangeSchema, range);
      if (!checked.success) {
        addIssue({ message: `"dependencies.${name}": ${checked.issues[0].message}` });
        return NEVER;
      }
      out[name] = checked.output;
    }
    return out;
  }),
);

const INTEGRITY = /^sha512-[A-Za-z0-9+/]{86}==$/;

/** One package of a locked tree. */
export const LockedPackageSchema = shape(
  {
    name: PackageNameSchema,
    version: v.pipe(
      v.string("A locked version must be a string."),
      v.check((version) => validVersion(version) !== null, "A locked version must be an exact semver version."),
    ),
    /** Where the tarball was fetched from (kept for provenance; bytes come from the Workshop's store). */
    resolved: v.pipe(
      v.string('"resolved" must be the tarball\'s URL.'),
      v.url('"resolved" must be the tarball\'s URL.'),
    ),
    /** The tarball's sha512 as the registry published it (`dist.integrity`): checked before any byte is used. */
    integrity: v.pipe(
      v.string('"integrity" must be a sha512 integrity string.'),
      v.regex(INTEGRITY, '"integrity" must be a sha512 integrity string like "sha512-…==".'),
    ),
    /**
     * The package's dependencies the resolver followed, as its manifest declares them: `dependencies` and
     * the `peerDependencies` not marked optional (`optionalDependencies` are not installed).
     */
    dependencies: v.optional(v.record(v.string(), v.string())),
    /** Fetched from the workspace's own registry: its bytes are stored for this workspace only. */
    private: v.optional(v.literal(true)),
    /**
     * In the tree for the editor's declarations only (an `@types/…` package added for a package without
     * types of its own, and what it needs): no run loads it.
     */
    types: v.optional(v.literal(true)),
  },
  { notObject: "Each locked package must be an object { name, version, resolved, integrity }." },
);

/**
 * An install path: `node_modules/<name>` nested any depth, every name a package name, so no key holds
 * `.` or `..` (a build names modules by these paths: `node_modules/@a/../..` would reach the gadget's
 * own and the harness's module names).
 */
const INSTALL_PATH =
  /^node_modules\/(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*(?:\/node_modules\/(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*)*$/;

/** The package name an install path ends in (`node_modules/a/node_modules/@s/b` → `@s/b`). */
function nameAtPath(path: string): string {
  return path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
}

/** `gadget.lock.json`, as the Workshop writes it. */
export const GadgetLockSchema = shape(
  {
    lockfileVersion: v.literal(1, '"lockfileVersion" must be 1.'),
    /** The manifest's `dependencies` this tree was resolved for: when they differ, the lock is stale. */
    dependencies: v.record(v.string(), v.string()),
    packages: v.pipe(
      v.record(
        v.pipe(v.string(), v.regex(INSTALL_PATH, 'Lock keys are install paths like "node_modules/zod".')),
        LockedPackageSchema,
      ),
      v.check(
        (packages) => Object.keys(packages).length <= MAX_LOCKED_PACKAGES,
        `A lock holds at most ${MAX_LOCKED_PACKAGES} packages.`,
      ),
      // The Workshop installs no aliases: the package at node_modules/zod is zod.
      v.check(
        (packages) => Object.entries(packages).every(([path, entry]) => nameAtPath(path) === entry.name),
        (issue) =>
          `Each locked package must be named as its install path says: ${
            Object.entries(issue.input as Record<string, { name: string }>)
              .filter(([path, entry]) => nameAtPath(path) !== entry.name)
              .map(([path, entry]) => `"${path.slice(0, 120)}" holds "${entry.name}"`)[0] ?? ""
          }.`,
      ),
    ),
  },
  {
    notObject:
      'gadget.lock.json must hold an object like { "lockfileVersion": 1, "dependencies": {}, "packages": {} }.',
  },
);

/** Whether a lock was resolved for exactly these dependencies (same names, same ranges). */
export function lockMatches(
  dependencies: Readonly<Record<string, string>> | undefined,
  lock: { dependencies: Readonly<Record<string, string>> } | undefined,
): boolean {
  const wanted = Object.entries(dependencies ?? {});
  if (!lock) return wanted.length === 0;
  const locked = lock.dependencies;
  return wanted.length === Object.keys(locked).length && wanted.every(([name, range]) => locked[name] === range);
}

/** The lock's text as `packageTypes` and `packageFile` take it. */
export const LockTextSchema = v.pipe(
  v.string("The lock must be the text of gadget.lock.json."),
  v.maxLength(4 * 1024 * 1024, "The lock is at most 4 MiB of text."),
);

/** `packageFile`'s path: a file of the tree, like "node_modules/zod/index.js". */
export const PackageFilePathSchema = v.pipe(
  v.string('The path must be a file of the tree like "node_modules/zod/index.js".'),
  v.maxLength(1024, "The path is at most 1024 characters."),
  v.startsWith("node_modules/", 'The path must be a file of the tree like "node_modules/zod/index.js".'),
);

/** `lookupPackage`'s range: left out, undefined or null for the `latest` tag. */
export const LookupRangeSchema = optionalArgument(VersionRangeSchema);

/** `Session.resolveDependencies` input: the manifest's dependencies, the current lock's text, what to update. */
export const ResolveDependenciesInputSchema = shape(
  {
    dependencies: DependenciesSchema,
    /** The current `gadget.lock.json` text: packages it holds that still satisfy their ranges are kept. */
    lock: v.nullish(
      v.pipe(
        v.string('"lock" must be the text of gadget.lock.json.'),
        v.maxLength(4 * 1024 * 1024, '"lock" is at most 4 MiB of text.'),
      ),
    ),
    /** Names to move to the newest version their range allows (all direct ones for `true`). */
    update: v.nullish(
      v.union([v.literal(true), v.array(PackageNameSchema)], '"update" must be true or a list of package names.'),
    ),
  },
  { notObject: "resolveDependencies takes { dependencies, lock?, update? }." },
);

/** `Session.setRegistry` input: the registry's base URL and, for a private one, its token. */
export const RegistryInputSchema = shape(
  {
    url: v.pipe(
      v.string('The registry must be a URL like "https://registry.example.com/".'),
      v.url('The registry must be a URL like "https://registry.example.com/".'),
      v.maxLength(2048),
    ),
    token: v.nullish(
      v.pipe(
        v.string("A registry token must be a string."),
        v.minLength(1, "A registry token cannot be empty: leave it out for a registry that needs none."),
        v.maxLength(4096, "A registry token is at most 4096 characters; check what was pasted."),
      ),
    ),
  },
  { notObject: "setRegistry takes { url, token? } or null." },
);

/** `setRegistry`'s argument: null (or left out) goes back to the Workshop's default registry. */
export const RegistryArgumentSchema = optionalArgument(RegistryInputSchema);
