/**
 * One `resolveDependencies` call: the tree resolved, every package of it fetched, verified and stored
 * (so whatever runs from the lock never needs the registry again), `@types/…` added for direct
 * dependencies without types of their own, the tree's size checked, and the lock text made. Any
 * package problem ends as a `ResolveOutcome` error naming the package; nothing is stored half.
 */

import type { GadgetLock, LockedPackage, ResolveDependenciesInput, ResolveOutcome } from "@gadgets/workshop-shared/api";
import { MAX_CONCURRENT_TARBALL_FETCHES, MAX_TREE_UNPACKED_BYTES } from "@gadgets/workshop-shared/limits";
import maxSatisfying from "semver/ranges/max-satisfying.js";
import { typesPackageName, typesRanges } from "./declarations.ts";
import { childPath } from "./install-path.ts";
import { lockText, parseLock } from "./lock-text.ts";
import { PackageError, packageFailure } from "./package-error.ts";
import type { StoredPackage } from "./package-fetch.ts";
import { resolveTree } from "./resolver.ts";
import type { RegistryAccess } from "./workspace-packages.ts";

/** What a resolution needs of the workspace's packages (WorkspacePackages; a fake in tests). */
export interface ResolutionPackages {
  client(signal?: AbortSignal): Promise<RegistryAccess>;
  ensure(entry: LockedPackage, access?: RegistryAccess): Promise<StoredPackage>;
}

export interface ResolutionLimits {
  maxTreeBytes?: number;
}

/** Runs `work` over `items`, at most `limit` at once, answers in order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const at = next++;
      results[at] = await work(items[at] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export async function resolveLock(
  packages: ResolutionPackages,
  input: ResolveDependenciesInput,
  signal: AbortSignal,
  limits: ResolutionLimits = {},
): Promise<ResolveOutcome> {
  try {
    const previous = input.lock ? parseLock(input.lock) : undefined;
    const access = await packages.client(signal);
    const isPrivate = !access.registry.isDefault;
    const runtime = await resolveTree({
      roots: input.dependencies,
      ...(previous ? { lock: previous } : {}),
      update: input.update ?? null,
      registry: access.client,
      private: isPrivate,
    });
    const stored = new Map<string, StoredPackage>();
    const maxTreeBytes = limits.maxTreeBytes ?? MAX_TREE_UNPACKED_BYTES;
    let runtimeBytes = 0;
    const tooLarge = () =>
      new PackageError(
        "too-large",
        `The dependencies unpack to more than ${mib(maxTreeBytes)} in all, the most one gadget may load. Drop a large dependency or pick a smaller one.`,
      );
    // `counted`: the runtime tree, whose size is held to the limit as its packages come in (no more are
    // fetched once it is past it).
    const store = async (tree: Record<string, LockedPackage>, counted: boolean) => {
      const paths = Object.keys(tree).filter((path) => !stored.has(path));
      const done = await mapLimited(paths, MAX_CONCURRENT_TARBALL_FETCHES, async (path) => {
        if (counted && runtimeBytes > maxTreeBytes) throw tooLarge();
        const one = await packages.ensure(tree[path] as LockedPackage, access);
        if (counted) runtimeBytes += one.info.bytes;
        return one;
      });
      for (const [i, path] of paths.entries()) stored.set(path, done[i] as StoredPackage);
    };
    await store(runtime, true);
    if (runtimeBytes > maxTreeBytes) throw tooLarge();

    const typeRoots = await typesFor(input.dependencies, runtime, stored, previous, access);
    let packagesOut = runtime;
    if (Object.keys(typeRoots).length > 0) {
      const withTypes = await resolveTree({
        roots: { ...input.dependencies, ...typeRoots },
        lock: { lockfileVersion: 1, dependencies: input.dependencies, packages: { ...previous?.packages, ...runtime } },
        registry: access.client,
        private: isPrivate,
      });
      // A package the runtime tree did not hold is there for the editor only.
      packagesOut = Object.fromEntries(
        Object.entries(withTypes).map(([path, entry]) =>
          runtime[path]?.integrity === entry.integrity
            ? [path, runtime[path] as LockedPackage]
            : [path, { ...entry, types: true as const }],
        ),
      );
      await store(packagesOut, false);
    }

    const lock: GadgetLock = { lockfileVersion: 1, dependencies: { ...input.dependencies }, packages: packagesOut };
    const direct = Object.keys(input.dependencies)
      .sort()
      .map((name) => childPath("", name));
    const rest = Object.keys(packagesOut)
      .filter((path) => !direct.includes(path))
      .sort();
    return {
      status: "ok",
      lock: lockText(lock),
      packages: [...direct, ...rest].map((path) => {
        const entry = packagesOut[path] as LockedPackage;
        return { path, name: entry.name, version: entry.version };
      }),
    };
  } catch (error) {
    if (signal.aborted && !(error instanceof PackageError && error.kind === "registry-timeout"))
      return packageFailure(
        new PackageError(
          "registry-timeout",
          "Resolving took too long and was stopped. Try again, or depend on fewer packages.",
        ),
      );
    return packageFailure(error);
  }
}

/**
 * `@types/<name>` for each direct dependency without declarations of its own, from the same registry:
 * the one the previous lock kept, else the newest matching the package's major.minor, major, or any.
 * A package with no `@types` at all simply has no types; one already locked is not asked about again,
 * so a locked tree re-resolves without the registry.
 */
async function typesFor(
  dependencies: Readonly<Record<string, string>>,
  runtime: Record<string, LockedPackage>,
  stored: ReadonlyMap<string, StoredPackage>,
  previous: GadgetLock | undefined,
  access: RegistryAccess,
): Promise<Record<string, string>> {
  const roots: Record<string, string> = {};
  for (const name of Object.keys(dependencies).sort()) {
    const path = childPath("", name);
    const entry = runtime[path];
    if (!entry || stored.get(path)?.info.types !== false) continue;
    const typesName = typesPackageName(name);
    if (typesName in dependencies) continue;
    const kept = previous?.packages[childPath("", typesName)];
    if (kept?.types) {
      roots[typesName] = kept.version;
      continue;
    }
    // The same package as last time, which had no @types then: it has none now either (no registry call).
    if (previous?.packages[path]?.integrity === entry.integrity) continue;
    let versions: string[];
    try {
      versions = Object.keys((await access.client.packument(typesName)).versions);
    } catch (error) {
      if (error instanceof PackageError && error.kind === "unknown-package") continue;
      throw error;
    }
    for (const range of typesRanges(entry.version)) {
      const found = maxSatisfying(versions, range);
      if (found) {
        roots[typesName] = found;
        break;
      }
    }
  }
  return roots;
}

const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;
