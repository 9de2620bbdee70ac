/** Reading and writing shares and run records, for the session and for public links. */

import type { SharedRunRecord, ShareSnapshot } from "@gadgets/workshop-shared/api";
import { MAX_SHARE_MISSES_PER_CONNECTION } from "@gadgets/workshop-shared/limits";
import { checkId } from "@gadgets/workshop-shared/validate";
import type { Env } from "../env.ts";
import type { ShareKind } from "../storage/share-store.ts";
import type { Connection } from "./connection.ts";
import { NOT_FOUND_MESSAGE } from "./public-share.ts";
import { RateLimiter } from "./rate-limiter.ts";

/** Lookups of links that do not exist, per minute, across all connections; past it, no lookups. */
const unknownLinks = new RateLimiter(600);

export async function storeShare(
  env: Env,
  kind: ShareKind,
  id: string,
  value: ShareSnapshot | SharedRunRecord,
): Promise<void> {
  await env.SHARES.get(env.SHARES.idFromName(id)).put(kind, JSON.stringify(value));
}

/** The stored text of a share of that kind; undefined for unknown and malformed ids alike (no lookup for the latter). */
export async function readShare(env: Env, kind: ShareKind, id: unknown): Promise<string | undefined> {
  const checked = checkId(id, "link");
  return checked.ok ? env.SHARES.get(env.SHARES.idFromName(checked.value)).get(kind) : undefined;
}

/** The share of that kind, or a not-found error that is the same for malformed and unknown ids. */
export async function loadShare<T extends ShareSnapshot | SharedRunRecord>(
  connection: Connection,
  kind: ShareKind,
  id: unknown,
): Promise<T> {
  if (connection.shareMisses >= MAX_SHARE_MISSES_PER_CONNECTION || !unknownLinks.allows()) {
    throw new Error("Too many links that do not exist were opened from this page. Reload it to try again.");
  }
  const text = await readShare(connection.env, kind, id);
  if (text === undefined) {
    connection.shareMisses++;
    unknownLinks.take();
    throw new Error(NOT_FOUND_MESSAGE);
  }
  return JSON.parse(text) as T;
}
