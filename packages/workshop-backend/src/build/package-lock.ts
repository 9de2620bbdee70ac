/**
 * The lock a build loads packages from: `gadget.lock.json` among the gadget's files, checked against
 * the manifest's `dependencies`. The build never resolves: a missing or stale lock is an error that
 * says how to write a new one.
 */

import type { GadgetFile, GadgetLock, GadgetManifest } from "@gadgets/workshop-shared/api";
import { LOCK_PATH } from "@gadgets/workshop-shared/api";
import { check, GadgetLockSchema, lockMatches } from "@gadgets/workshop-shared/schemas";

export type LockRead =
  | { ok: true; lock: GadgetLock | undefined }
  | { ok: false; kind: "stale-lock" | "invalid"; message: string };

const HOW_TO_LOCK =
  "Save the gadget again in the Workshop (it resolves and locks them), or run `gadgets add <name>` in its folder.";

/** The gadget's lock, when its manifest has dependencies; undefined when it has none. */
export function readLock(files: readonly GadgetFile[], manifest: GadgetManifest): LockRead {
  const dependencies = manifest.dependencies ?? {};
  const names = Object.keys(dependencies);
  if (names.length === 0) return { ok: true, lock: undefined };
  const listed = names.slice(0, 5).join(", ") + (names.length > 5 ? ", …" : "");
  const file = files.find((candidate) => candidate.path === LOCK_PATH);
  if (!file)
    return {
      ok: false,
      kind: "stale-lock",
      message: `gadget.json depends on ${listed}, but there is no ${LOCK_PATH} with the versions to load. ${HOW_TO_LOCK}`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(file.content);
  } catch {
    return { ok: false, kind: "invalid", message: `${LOCK_PATH} is not JSON. ${HOW_TO_LOCK}` };
  }
  const checked = check(GadgetLockSchema, parsed, `${LOCK_PATH}: `);
  if (!checked.ok) return { ok: false, kind: "invalid", message: `${checked.error} ${HOW_TO_LOCK}` };
  const lock = checked.value;
  const unlocked = names.find((name) => !lock.packages[`node_modules/${name}`]);
  if (!lockMatches(dependencies, lock) || unlocked !== undefined)
    return {
      ok: false,
      kind: "stale-lock",
      message: `${LOCK_PATH} was locked for other dependencies than gadget.json names (${listed}): it is stale. ${HOW_TO_LOCK}`,
    };
  return { ok: true, lock };
}
