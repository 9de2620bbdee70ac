/**
 * The `Session` methods for npm packages: resolving a gadget's dependencies to a lock, looking up a
 * version, declarations for the editor, one package file, and the workspace's registry setting. Every
 * argument is checked here; package problems answer as `ResolveOutcome` errors, bad calls throw.
 * Resolution runs in the session's own Worker request (never inside the workspace's Durable Object),
 * a few at a time per workspace.
 */

import type {
  GadgetLock,
  PackageFileText,
  PackageLookup,
  PackageTypeFiles,
  RegistryInfo,
  RegistryInput,
  ResolveOutcome,
} from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import {
  MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE,
  MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE,
  RESOLVE_TIMEOUT_MS,
} from "@gadgets/workshop-shared/limits";
import {
  LockTextSchema,
  LookupRangeSchema,
  PackageFilePathSchema,
  PackageNameSchema,
  parseArgument,
  RegistryArgumentSchema,
  ResolveDependenciesInputSchema,
} from "@gadgets/workshop-shared/schemas";
import maxSatisfying from "semver/ranges/max-satisfying.js";
import satisfies from "semver/functions/satisfies.js";
import type { Env } from "../env.ts";
import { lockTypes, locateFile } from "../packages/lock-files.ts";
import { parseLock } from "../packages/lock-text.ts";
import { PackageError } from "../packages/package-error.ts";
import { resolveLock } from "../packages/resolution.ts";
import { KeyedSlots } from "../keyed-slots.ts";
import { registryInfo, setWorkspaceRegistry } from "../packages/registry-setting.ts";
import { WorkspacePackages } from "../packages/workspace-packages.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";

export interface PackagesContext {
  env: Env;
  workspaceId: string;
  store: DurableObjectStub<WorkspaceStore>;
}

const trees = new KeyedSlots(MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE);
/** Reads of one package (a lookup, a file) each fetch up to 8 MiB: bounded per workspace too, more of them. */
const reads = new KeyedSlots(MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE);

const packagesOf = (context: PackagesContext) => new WorkspacePackages(context.env, context.workspaceId, context.store);

/** A lock passed to a read: checked, or INVALID_ARGUMENT with what is wrong. */
function lockArgument(lock: unknown): GadgetLock {
  try {
    return parseLock(parseArgument(LockTextSchema, lock));
  } catch (error) {
    if (error instanceof PackageError) throw codedError("INVALID_ARGUMENT", error.message, TypeError);
    throw error;
  }
}

/** A package problem of a call that answers no outcome: thrown with its message (NOT_FOUND when it is about a name or version). */
function thrown(error: unknown): never {
  if (!(error instanceof PackageError)) throw error;
  throw codedError(
    error.kind === "unknown-package" || error.kind === "no-matching-version" ? "NOT_FOUND" : "INVALID_ARGUMENT",
    error.message,
  );
}

/**
 * Work over a whole tree (resolving it, reading its declarations) takes one of the workspace's tree
 * slots; a read of one package, one of its read slots.
 */
async function inSlot<T>(context: PackagesContext, work: () => Promise<T>, of: "tree" | "read" = "tree"): Promise<T> {
  const release = (of === "tree" ? trees : reads).enter(context.workspaceId);
  if (!release)
    throw codedError(
      "RATE_LIMITED",
      of === "tree"
        ? `This workspace is already resolving or reading ${MAX_CONCURRENT_RESOLUTIONS_PER_WORKSPACE} dependency trees; try again when one of them ends.`
        : `This workspace is already looking up or reading ${MAX_CONCURRENT_PACKAGE_READS_PER_WORKSPACE} packages; try again when one of them ends.`,
    );
  try {
    return await work();
  } finally {
    release();
  }
}

export async function resolveDependencies(context: PackagesContext, input: unknown): Promise<ResolveOutcome> {
  const checked = parseArgument(ResolveDependenciesInputSchema, input);
  return inSlot(context, () => resolveLock(packagesOf(context), checked, AbortSignal.timeout(RESOLVE_TIMEOUT_MS)));
}

export async function lookupPackage(context: PackagesContext, name: unknown, range: unknown): Promise<PackageLookup> {
  const packageName = parseArgument(PackageNameSchema, name);
  const wanted = parseArgument(LookupRangeSchema, range);
  try {
    const { client } = await packagesOf(context).client(AbortSignal.timeout(RESOLVE_TIMEOUT_MS));
    const packument = await inSlot(context, () => client.packument(packageName), "read");
    const latest = packument.distTags.latest;
    const version =
      wanted === undefined
        ? latest
        : latest !== undefined && Object.hasOwn(packument.versions, latest) && satisfies(latest, wanted)
          ? latest
          : (maxSatisfying(Object.keys(packument.versions), wanted) ?? undefined);
    // Own keys only: a registry's "latest": "toString" names no version.
    if (version === undefined || !Object.hasOwn(packument.versions, version))
      throw new PackageError(
        "no-matching-version",
        wanted === undefined
          ? `${packageName} has no "latest" version in the registry.`
          : `No version of ${packageName} matches ${JSON.stringify(wanted)}.`,
        packageName,
      );
    return { name: packageName, version };
  } catch (error) {
    thrown(error);
  }
}

export async function packageTypes(context: PackagesContext, lock: unknown): Promise<PackageTypeFiles> {
  const checked = lockArgument(lock);
  try {
    return await inSlot(context, () => lockTypes(packagesOf(context), checked));
  } catch (error) {
    thrown(error);
  }
}

export async function packageFile(context: PackagesContext, lock: unknown, path: unknown): Promise<PackageFileText> {
  const checked = lockArgument(lock);
  const treePath = parseArgument(PackageFilePathSchema, path);
  const found = locateFile(checked, treePath);
  if (!found) throw codedError("NOT_FOUND", `${treePath} is not in a package of this lock.`);
  let content: string | undefined;
  try {
    content = await inSlot(context, () => packagesOf(context).file(found.entry, found.inside), "read");
  } catch (error) {
    thrown(error);
  }
  if (content === undefined)
    throw codedError(
      "NOT_FOUND",
      `${found.entry.name}@${found.entry.version} has no text file ${found.inside} (binary files are not shown).`,
    );
  return { path: treePath, content };
}

export async function getRegistry(context: PackagesContext): Promise<RegistryInfo> {
  return registryInfo(context.env, context.store);
}

export async function setRegistry(context: PackagesContext, input: unknown): Promise<RegistryInfo> {
  const checked: RegistryInput | undefined = parseArgument(RegistryArgumentSchema, input);
  return setWorkspaceRegistry(context.env, context.workspaceId, context.store, checked ?? null);
}
