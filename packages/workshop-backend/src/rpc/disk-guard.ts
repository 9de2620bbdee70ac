/**
 * Refuses new writes while the disk is nearly full, so it never fills: reads keep working. Locally the
 * host answers how much is free (DISK_STATUS); on Cloudflare there is no such binding and no guard.
 */

import type { Env } from "../env.ts";

/** How long one answer is trusted: writes come in bursts, the disk fills slowly. */
const CHECK_EVERY_MS = 1000;

let last: { at: number; ok: boolean; freeBytes: number; minFreeBytes: number } | undefined;

async function status(env: Env): Promise<typeof last> {
  const now = Date.now();
  if (last && now - last.at < CHECK_EVERY_MS) return last;
  const service = env.DISK_STATUS;
  if (!service) return undefined;
  try {
    const response = await service.fetch("http://disk-status/");
    const body = (await response.json()) as { freeBytes: number; minFreeBytes: number };
    last = { at: now, ok: body.freeBytes >= body.minFreeBytes, ...body };
  } catch {
    // No answer is not a full disk: the writes themselves still fail cleanly if it is.
    last = { at: now, ok: true, freeBytes: 0, minFreeBytes: 0 };
  }
  return last;
}

/** Throws a clear error when the disk is below its free-space floor. */
export async function checkDiskForWrite(env: Env): Promise<void> {
  const known = await status(env);
  if (known && !known.ok) {
    const mb = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;
    throw new Error(
      `The Workshop's disk is nearly full (${mb(known.freeBytes)} free; new writes stop below ${mb(known.minFreeBytes)}). Nothing was saved; reading still works. Free disk space on the server, then try again.`,
    );
  }
}
