/**
 * A folder's `gadget.lock.json`, kept as npm keeps package-lock.json: when gadget.json's `dependencies`
 * are not what the lock was resolved for (or there is no lock), the Workshop resolves them and the
 * answer is written into the folder before anything is uploaded, since the build refuses a stale lock.
 * The rule itself is `refreshLock` (workshop-shared), the same the IDE follows.
 */

import { existsSync, writeFileSync } from "node:fs";
import { linkFreePath } from "./link-free-path.ts";
import { join } from "node:path";
import { LOCK_PATH } from "@gadgets/workshop-shared/api";
import { lockErrorText, refreshLock } from "@gadgets/workshop-shared/dependency-lock";
import type { Session } from "@gadgets/workshop-shared";
import type { RpcStub } from "capnweb";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";
import type { GadgetFolder } from "./gadget-folder.ts";
import { TYPES_MARKER, typesAreCurrent, writePackageTypes } from "./package-types-folder.ts";

export interface LockedFolder {
  folder: GadgetFolder;
  /** The lock was (re)written now. */
  changed: boolean;
  /** The lock's text, when the gadget has one. */
  lock: string | undefined;
  /** Why the editor's declarations could not be brought up to date (the run goes on without them). */
  typesProblem?: string;
}

/**
 * The folder with a lock that fits its dependencies, written to disk when it changed. `update` moves the
 * named packages (all for `true`) to the newest versions their ranges allow.
 */
export async function lockFolder(
  session: RpcStub<Session>,
  folder: GadgetFolder,
  update?: true | string[],
): Promise<LockedFolder> {
  const refreshed = await refreshLock(folder.files, (input) => session.resolveDependencies(input), update);
  if (refreshed.status === "error") {
    throw new CliError(
      EXIT.invalid,
      `Could not lock the dependencies in gadget.json: ${lockErrorText(refreshed)} Nothing was uploaded or run.`,
    );
  }
  const lock = refreshed.files.find((file) => file.path === LOCK_PATH)?.content;
  if (refreshed.changed && lock !== undefined) {
    if (!linkFreePath(folder.root, LOCK_PATH))
      throw new CliError(
        EXIT.invalid,
        `${LOCK_PATH} in ${folder.root} is a symbolic link: the lock is not written through it. Replace the link with a file (or delete it), then run again.`,
      );
    writeFileSync(join(folder.root, LOCK_PATH), lock);
  }
  const locked: LockedFolder = { folder: { ...folder, files: refreshed.files }, changed: refreshed.changed, lock };
  try {
    await refreshTypes(session, folder.root, lock);
  } catch (error) {
    locked.typesProblem = `The packages' declarations for your editor were not written: ${error instanceof Error ? error.message : String(error)}`;
  }
  return locked;
}

/** Writes the lock's declarations under node_modules/ unless those on disk are for this very lock. */
async function refreshTypes(session: RpcStub<Session>, root: string, lock: string | undefined): Promise<void> {
  if (lock === undefined) {
    if (existsSync(join(root, TYPES_MARKER))) writePackageTypes(root, undefined, { files: [] });
    return;
  }
  if (typesAreCurrent(root, lock)) return;
  writePackageTypes(root, lock, await session.packageTypes(lock));
}
