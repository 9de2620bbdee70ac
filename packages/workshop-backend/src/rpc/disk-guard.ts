/**
 * Refuses new writes while the disk is nearly full, so it never fills: reads keep working. Locally the
 * host answers how much is free (DISK_STATUS); on Cloudflare there is no such binding and no guard.
 */

import type { Env } from "../env.ts";

/** How long one answer is trusted: writes come in bursts, the disk fills slowly. */
const CHECK_EVERY_MS = 1000;

export interface DiskStatus {
  freeBytes: number;
  minFreeBytes: number;
}

let last: { at: number; status: DiskStatus } | undefined;

async function status(env: Env): Promise<DiskStatus | undefined> {
  const now = Date.now();
  if (last && now - last.at < CHECK_EVERY_MS) return last.status;
  const service = env.DISK_STATUS;
  if (!service) return undefined;
  let answer: DiskStatus;
  try {
    answer = (await (await service.fetch("http://disk-status/")).json()) as DiskStatus;
  } catch {
    // No answer is not a full disk: the writes themselves still fail cleanly if it is.
    answer = { freeBytes: Number.MAX_SAFE_INTEGER, minFreeBytes: 0 };
  }
  last = { at: now, status: answer };
  return answer;
}

/**
 * Why writes are refused at this much free disk, or undefined when they may go on. `headroomBytes`: a
 * write that must leave that much above the floor (the shared package store's).
 */
export function diskRefusal({ freeBytes, minFreeBytes }: DiskStatus, headroomBytes = 0): string | undefined {
  const floor = minFreeBytes + headroomBytes;
  if (freeBytes >= floor) return undefined;
  const mb = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;
  const what =
    headroomBytes > 0
      ? `shared packages are not stored below ${mb(floor)}, which keeps room for workspaces' own data`
      : `new writes stop below ${mb(floor)}`;
  return `The Workshop's disk is nearly full (${mb(freeBytes)} free; ${what}). Nothing was saved; reading still works. Free disk space on the server, then try again.`;
}

/** Why a write would be refused now, or undefined when it may go on. */
export async function diskWriteRefusal(env: Env, headroomBytes = 0): Promise<string | undefined> {
  const known = await status(env);
  return known && diskRefusal(known, headroomBytes);
}

/** Throws a clear error when the disk is below its free-space floor. */
export async function checkDiskForWrite(env: Env): Promise<void> {
  const refusal = await diskWriteRefusal(env);
  if (refusal) throw new Error(refusal);
}
