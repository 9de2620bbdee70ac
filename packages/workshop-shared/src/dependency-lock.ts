/**
 * The one rule clients (the IDE, the CLI) follow for `gadget.lock.json`: when gadget.json's
 * `dependencies` are not what the lock was resolved for, ask the Workshop to resolve them and keep its
 * answer as the lock — before the files are saved or run, since the build refuses a stale lock. Also
 * the edit that adds one dependency to gadget.json's text. Browser- and Node-safe, no I/O of its own.
 */

import * as v from "valibot";
import type { GadgetFile, PackageErrorKind, ResolveDependenciesInput, ResolveOutcome } from "./api.ts";
import { DependenciesSchema, GadgetLockSchema, lockMatches } from "./schemas/packages.ts";
import { LOCK_PATH, MANIFEST_PATH } from "./wire-basics.ts";

export type Resolve = (input: ResolveDependenciesInput) => Promise<ResolveOutcome>;

export type LockState =
  /** Nothing to lock (no dependencies, no lock), or the lock matches: use the files as they are. */
  | { status: "fresh" }
  /** The lock is missing, unreadable or for other dependencies: resolve `dependencies` first. */
  | { status: "stale"; dependencies: Record<string, string>; lock: string | null }
  /** gadget.json cannot be read or its `dependencies` are invalid: the save or build says why, not us. */
  | { status: "unreadable" };

const fileText = (files: readonly GadgetFile[], path: string) => files.find((file) => file.path === path)?.content;

/** The manifest's `dependencies` (empty when none), or undefined when gadget.json or the field is invalid. */
export function declaredDependencies(files: readonly GadgetFile[]): Record<string, string> | undefined {
  const text = fileText(files, MANIFEST_PATH);
  if (text === undefined) return undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof manifest !== "object" || manifest === null) return undefined;
  const declared = (manifest as { dependencies?: unknown }).dependencies;
  if (declared === undefined) return {};
  const checked = v.safeParse(DependenciesSchema, declared);
  return checked.success ? checked.output : undefined;
}

/** Whether the files' lock fits their manifest's dependencies. */
export function lockState(files: readonly GadgetFile[]): LockState {
  const dependencies = declaredDependencies(files);
  if (!dependencies) return { status: "unreadable" };
  const text = fileText(files, LOCK_PATH) ?? null;
  if (text === null)
    return Object.keys(dependencies).length ? { status: "stale", dependencies, lock: null } : { status: "fresh" };
  const lock = parseLock(text);
  return lock && lockMatches(dependencies, lock) ? { status: "fresh" } : { status: "stale", dependencies, lock: text };
}

/** The lock text parsed, or undefined when it is not a lock. */
export function parseLock(text: string): v.InferOutput<typeof GadgetLockSchema> | undefined {
  try {
    const checked = v.safeParse(GadgetLockSchema, JSON.parse(text));
    return checked.success ? checked.output : undefined;
  } catch {
    return undefined;
  }
}

export type LockRefresh =
  /** `files` with the lock as it should be (`changed` when it was written now). */
  | { status: "ok"; files: GadgetFile[]; changed: boolean }
  | { status: "error"; kind: PackageErrorKind; package?: string; message: string };

/**
 * The files with a lock that fits their dependencies: unchanged when it already does (or the manifest is
 * unreadable), else with `gadget.lock.json` written from the Workshop's resolution. `update` names
 * packages to move to the newest version their range allows, re-resolving even a fresh lock.
 */
export async function refreshLock(
  files: readonly GadgetFile[],
  resolve: Resolve,
  update?: true | string[],
): Promise<LockRefresh> {
  const state = lockState(files);
  if (state.status === "unreadable" || (state.status === "fresh" && !update)) {
    return { status: "ok", files: [...files], changed: false };
  }
  const dependencies = state.status === "stale" ? state.dependencies : (declaredDependencies(files) ?? {});
  const lock = state.status === "stale" ? state.lock : (fileText(files, LOCK_PATH) ?? null);
  const outcome = await resolve({ dependencies, lock, ...(update ? { update } : {}) });
  if (outcome.status === "error") return outcome;
  const changed = outcome.lock !== lock;
  const rest = files.filter((file) => file.path !== LOCK_PATH);
  return { status: "ok", files: [...rest, { path: LOCK_PATH, content: outcome.lock }], changed };
}

/** The error of a resolution in one sentence that names the package. */
export function lockErrorText(error: { package?: string; message: string }): string {
  return error.package && !error.message.includes(error.package) ? `${error.package}: ${error.message}` : error.message;
}

/**
 * gadget.json's text with `name` added to (or changed in) `dependencies`, keys kept in order (a new
 * `dependencies` goes last). Throws when the text is not a JSON object: the caller shows that first.
 */
export function withDependency(manifestText: string, name: string, range: string): string {
  const manifest: unknown = JSON.parse(manifestText);
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest))
    throw new Error(`${MANIFEST_PATH} must hold an object to add a dependency to.`);
  const record = manifest as Record<string, unknown>;
  const current = record.dependencies;
  const dependencies = typeof current === "object" && current !== null && !Array.isArray(current) ? current : {};
  const next = { ...record, dependencies: { ...dependencies, [name]: range } };
  return `${JSON.stringify(next, null, 2)}\n`;
}

/** The range a quick fix or `gadgets add` writes for a version: `^4.1.2` (`0.x` stays within its minor, as npm's ^ does). */
export const caretRange = (version: string): string => `^${version}`;

/** The package a bare import specifier names (`zod/mini` → `zod`, `@scope/a/b` → `@scope/a`). */
export function packageOfSpecifier(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.includes(":")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return name && (!specifier.startsWith("@") || parts.length >= 2) ? name : undefined;
}
