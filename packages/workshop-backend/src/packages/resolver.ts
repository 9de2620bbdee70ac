/**
 * Semver ranges → the exact tree, laid out as npm lays out node_modules: each package as high as it can
 * go (`node_modules/<name>`), and nested under the package that needs it (`node_modules/a/node_modules/b`)
 * only when a version already placed on its lookup path does not satisfy its range. Packages of the
 * current lock that still satisfy their ranges are kept (they need no registry at all) unless named in
 * `update`. The walk goes level by level, packuments of a level fetched together and placed in name
 * order, so the same input gives the same tree.
 *
 * What is followed: `dependencies`, and `peerDependencies` not marked optional (npm 7+ installs those
 * too; a peer the tree already holds is reused). Not followed: `optionalDependencies` (in practice
 * platform binaries and native addons, which no isolate runs) and optional peers. Ranges that are not
 * semver (git URLs, `file:`, `npm:` aliases) are refused naming the package that asked for them.
 */

import type { GadgetLock, LockedPackage } from "@gadgets/workshop-shared/api";
import {
  MAX_CONCURRENT_PACKUMENT_FETCHES,
  MAX_DEPENDENCY_DEPTH,
  MAX_LOCKED_PACKAGES,
  MAX_VERSION_RANGE_CHARS,
} from "@gadgets/workshop-shared/limits";
import { isPackageName } from "@gadgets/workshop-shared/schemas";
import maxSatisfying from "semver/ranges/max-satisfying.js";
import satisfies from "semver/functions/satisfies.js";
import validRange from "semver/ranges/valid.js";
import rcompare from "semver/functions/rcompare.js";
import gt from "semver/functions/gt.js";
import valid from "semver/functions/valid.js";
import { childPath, lookupPaths } from "./install-path.ts";
import { PackageError } from "./package-error.ts";
import { type Packument, versionManifest } from "./packument.ts";

/** What the resolver asks of a registry (the RegistryClient, or a fake in tests). */
export interface PackumentSource {
  packument(name: string): Promise<Packument>;
  readonly origin: string;
}

export interface ResolveTreeInput {
  /** The gadget's own dependencies, name → range: placed at the top. */
  roots: Readonly<Record<string, string>>;
  lock?: GadgetLock;
  /** Names to move to the newest version their range allows; true: every root. */
  update?: true | readonly string[] | null;
  registry: PackumentSource;
  /** Whether the registry is the workspace's own: its packages are marked private in the lock. */
  private: boolean;
  maxPackages?: number;
  maxDepth?: number;
}

interface TreeNode {
  path: string;
  entry: LockedPackage;
  depth: number;
  /** The package that first asked for this one (for messages about depth). */
  requiredBy?: TreeNode;
}

interface Chosen {
  entry: LockedPackage;
  /** Whether an already placed version serves this request. */
  accepts: (version: string) => boolean;
}

/** A dist-tag as a dependency may name one (`latest`, `next`); anything else that is not semver is a URL or path. */
const DIST_TAG = /^[A-Za-z][A-Za-z0-9._-]{0,63}$/;

const who = (node: TreeNode | undefined) => (node ? `${node.entry.name}@${node.entry.version}` : "gadget.json");

function chain(node: TreeNode): string {
  const names: string[] = [];
  for (let at: TreeNode | undefined = node; at; at = at.requiredBy) names.unshift(at.entry.name);
  return ["gadget", ...names].join(" → ");
}

/** The tree, keyed by install path, as `GadgetLock.packages` holds it. */
export async function resolveTree(input: ResolveTreeInput): Promise<Record<string, LockedPackage>> {
  const maxPackages = input.maxPackages ?? MAX_LOCKED_PACKAGES;
  const maxDepth = input.maxDepth ?? MAX_DEPENDENCY_DEPTH;
  const updating = new Set(input.update === true ? Object.keys(input.roots) : (input.update ?? []));
  const locked = Object.values(input.lock?.packages ?? {});
  const nodes = new Map<string, TreeNode>();
  /** Install path → the install paths its dependencies resolve to (for the cycle check). */
  const edges = new Map<string, string[]>();

  const lockedFor = (name: string, range: string): LockedPackage | undefined => {
    if (updating.has(name) || validRange(range) === null) return undefined;
    return locked
      .filter((entry) => entry.name === name && satisfies(entry.version, range))
      .sort((a, b) => rcompare(a.version, b.version))[0];
  };

  const packumentOf = packumentGate(input.registry, maxPackages);

  const choose = async (name: string, range: string, requiredBy: TreeNode | undefined): Promise<Chosen> => {
    // A registry's manifest names its dependencies: a name the lock could not hold (nor a URL path safely carry) is refused.
    if (!isPackageName(name))
      throw new PackageError(
        "bad-package",
        `${who(requiredBy)} depends on ${JSON.stringify(name.slice(0, 120))}, which is not a package name the Workshop installs (lower case letters, digits, "-", "." and "_"): pick another version of ${requiredBy ? requiredBy.entry.name : "it"}.`,
        requiredBy?.entry.name ?? name,
      );
    // Before any matching: a long range costs CPU in proportion to its length times the versions.
    if (range.length > MAX_VERSION_RANGE_CHARS)
      throw new PackageError(
        "bad-package",
        `${who(requiredBy)} asks for ${name} with a version range of ${range.length} characters, over the ${MAX_VERSION_RANGE_CHARS} the Workshop matches: pick another version of ${requiredBy ? requiredBy.entry.name : "it"}.`,
        requiredBy?.entry.name ?? name,
      );
    const keep = lockedFor(name, range);
    const semverRange = validRange(range) !== null;
    const accepts = (version: string) => semverRange && satisfies(version, range);
    if (keep) return { entry: keep, accepts };
    if (!semverRange && !DIST_TAG.test(range))
      throw new PackageError(
        "bad-package",
        `${who(requiredBy)} asks for ${name} as ${JSON.stringify(range.slice(0, 120))}, which is not a version range: the Workshop installs packages from the registry only (no git, file or alias specifiers).`,
        name,
      );
    const packument = await packumentOf(name);
    const versions = Object.keys(packument.versions);
    const tagged = semverRange || !Object.hasOwn(packument.distTags, range) ? undefined : packument.distTags[range];
    let version: string | null;
    if (!semverRange) version = tagged !== undefined && Object.hasOwn(packument.versions, tagged) ? tagged : null;
    else {
      const latest = packument.distTags.latest;
      version =
        latest !== undefined && Object.hasOwn(packument.versions, latest) && satisfies(latest, range)
          ? latest
          : maxSatisfying(versions, range);
    }
    if (version === null) {
      const latest = packument.distTags.latest;
      const newest = latest !== undefined && Object.hasOwn(packument.versions, latest) ? latest : newestOf(versions);
      throw new PackageError(
        "no-matching-version",
        `No version of ${name} matches ${JSON.stringify(range)} (asked for by ${who(requiredBy)})${newest ? `; the newest is ${newest}` : ""}.`,
        name,
      );
    }
    const manifest = versionManifest(packument, version);
    const followed: Record<string, string> = {};
    for (const [peer, peerRange] of Object.entries(manifest.peerDependencies))
      if (!manifest.optionalPeers.has(peer)) followed[peer] = peerRange;
    for (const [dep, depRange] of Object.entries(manifest.dependencies)) followed[dep] = depRange;
    for (const optional of Object.keys(manifest.optionalDependencies)) delete followed[optional];
    const entry: LockedPackage = {
      name,
      version,
      resolved: manifest.tarball,
      integrity: manifest.integrity,
      ...(Object.keys(followed).length > 0 ? { dependencies: followed } : {}),
      ...(input.private ? { private: true as const } : {}),
    };
    return { entry, accepts: (placed) => placed === version || accepts(placed) };
  };

  const place = (path: string, chosen: Chosen, depth: number, requiredBy: TreeNode | undefined): TreeNode => {
    if (depth > maxDepth)
      throw new PackageError(
        "too-large",
        `The dependency chain ${requiredBy ? chain(requiredBy) : "gadget"} → ${chosen.entry.name} is deeper than ${maxDepth} levels, the limit.`,
        chosen.entry.name,
      );
    if (nodes.size >= maxPackages)
      throw new PackageError(
        "too-large",
        `The dependencies need more than ${maxPackages} packages in all (${chosen.entry.name} would be one more), the limit for one gadget.`,
        chosen.entry.name,
      );
    const node: TreeNode = { path, entry: chosen.entry, depth, ...(requiredBy ? { requiredBy } : {}) };
    nodes.set(path, node);
    return node;
  };

  // The gadget's own dependencies first, at the top, so none of them is ever pushed down.
  const rootNames = Object.keys(input.roots).sort();
  const rootChoices = await Promise.all(rootNames.map((name) => choose(name, input.roots[name] as string, undefined)));
  let level: TreeNode[] = rootNames.map((name, i) =>
    place(childPath("", name), rootChoices[i] as Chosen, 1, undefined),
  );
  edges.set(
    "",
    level.map((node) => node.path),
  );

  while (level.length > 0) {
    const next: TreeNode[] = [];
    // Packuments this level needs, asked for together; placing below stays in order.
    const choices = new Map<string, Promise<Chosen>>();
    for (const node of level)
      for (const [name, range] of Object.entries(node.entry.dependencies ?? {})) {
        const key = `${name}\0${range}`;
        if (!choices.has(key)) {
          const chosen = choose(name, range, node);
          chosen.catch(() => {});
          choices.set(key, chosen);
        }
      }
    for (const node of level) {
      const targets: string[] = [];
      for (const name of Object.keys(node.entry.dependencies ?? {}).sort()) {
        const range = node.entry.dependencies?.[name] as string;
        const chosen = await (choices.get(`${name}\0${range}`) as Promise<Chosen>);
        let nearest: TreeNode | undefined;
        for (const candidate of lookupPaths(node.path, name)) {
          nearest = nodes.get(candidate);
          if (nearest) break;
        }
        if (nearest && chosen.accepts(nearest.entry.version)) {
          targets.push(nearest.path);
          continue;
        }
        // Free at the top when nothing is on the lookup path; else under the package that needs it.
        const path = nearest ? childPath(node.path, name) : childPath("", name);
        const placed = place(path, chosen, node.depth + 1, node);
        targets.push(placed.path);
        next.push(placed);
      }
      edges.set(node.path, targets);
    }
    level = next;
  }

  refuseCycles(nodes, edges);
  const packages: Record<string, LockedPackage> = {};
  for (const [path, node] of nodes) packages[path] = node.entry;
  return packages;
}

/**
 * The registry as one walk asks it: at most MAX_CONCURRENT_PACKUMENT_FETCHES packuments in flight, and
 * no more names than a tree may hold packages — each name asked for is placed at least once, so a
 * manifest naming thousands is refused before they are fetched. (A dozen lines of queue: no library.)
 */
function packumentGate(registry: PackumentSource, maxNames: number): (name: string) => Promise<Packument> {
  const names = new Set<string>();
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  return async (name) => {
    names.add(name);
    if (names.size > maxNames)
      throw new PackageError(
        "too-large",
        `The dependencies name more than ${maxNames} packages in all (${name} would be one more), the limit for one gadget.`,
        name,
      );
    while (inFlight >= MAX_CONCURRENT_PACKUMENT_FETCHES) await new Promise<void>((go) => waiting.push(go));
    inFlight++;
    try {
      return await registry.packument(name);
    } finally {
      inFlight--;
      waiting.shift()?.();
    }
  };
}

/** The highest of `versions` in one pass (a registry may list hundreds of thousands; sorting them all only to name one is slow). */
function newestOf(versions: readonly string[]): string | undefined {
  let newest: string | undefined;
  for (const version of versions) if (valid(version) && (newest === undefined || gt(version, newest))) newest = version;
  return newest;
}

/** A cycle among the packages (a needs b needs a) is refused naming them, in order. */
function refuseCycles(nodes: ReadonlyMap<string, TreeNode>, edges: ReadonlyMap<string, readonly string[]>): void {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (path: string): void => {
    state.set(path, "open");
    stack.push(path);
    for (const target of edges.get(path) ?? []) {
      const seen = state.get(target);
      if (seen === "open") {
        const loop = [...stack.slice(stack.indexOf(target)), target].map((at) => nodes.get(at)?.entry.name ?? at);
        throw new PackageError(
          "cycle",
          `The dependencies form a cycle: ${loop.join(" → ")}. A gadget's packages cannot depend on each other in a loop; pick versions that do not.`,
          loop[0],
        );
      }
      if (seen === undefined) visit(target);
    }
    stack.pop();
    state.set(path, "done");
  };
  for (const path of [...(edges.get("") ?? [])].sort()) if (!state.has(path)) visit(path);
}
