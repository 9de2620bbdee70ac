/**
 * workerd's config and bundle live in a temporary folder per process, removed when the process exits.
 * A host killed with SIGKILL (power loss, the OOM killer) cannot remove them: at the next start,
 * folders whose owner is gone are removed. A folder counts as owned while its owner's pid is alive or
 * some process still runs in it (workerd runs with the folder as its working directory).
 */

import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const TEMP_PREFIX = "workshop-workerd-";
/** Written into each folder: the pid of the host process that made it. */
export const OWNER_FILE = "owner.pid";
/** A folder without an owner file younger than this may be one a host made a moment ago. */
const GRACE_MS = 60_000;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, it is just not ours.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Working directories of running processes (Linux; empty elsewhere). */
function workingDirectories(): Set<string> {
  const dirs = new Set<string>();
  if (!existsSync("/proc")) return dirs;
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      dirs.add(readlinkSync(`/proc/${entry}/cwd`));
    } catch {
      // gone, or not ours to read
    }
  }
  return dirs;
}

/** Removes the stale folders in `base` (the system temp folder by default); returns how many. */
export function removeStaleTempFolders(base = tmpdir(), now = Date.now()): number {
  let candidates: string[];
  try {
    candidates = readdirSync(base).filter((name) => name.startsWith(TEMP_PREFIX));
  } catch {
    return 0;
  }
  if (candidates.length === 0) return 0;
  const inUse = workingDirectories();
  let removed = 0;
  for (const name of candidates) {
    const dir = join(base, name);
    try {
      if (!statSync(dir).isDirectory() || inUse.has(dir)) continue;
      const owner = Number(readFileSync(join(dir, OWNER_FILE), "utf8").trim());
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) continue;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") continue;
      // No owner file: a folder from before owners were written, or one a host made a moment ago
      // and is about to sign; only an old one is taken for stale.
      if (!existsSync(dir) || now - statSync(dir).mtimeMs < GRACE_MS) continue;
    }
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
