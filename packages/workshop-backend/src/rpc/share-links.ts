/** Reading and writing shares and run records, for the session and for public links. */

import type { SharedRunRecord, ShareSnapshot } from "@gadgets/workshop-shared/api";
import { MAX_SHARE_MISSES_PER_CONNECTION } from "@gadgets/workshop-shared/limits";
import { check, LinkIdSchema } from "@gadgets/workshop-shared/schemas";
import type { Env } from "../env.ts";
import type { ShareKind, ShareStore } from "../storage/share-store.ts";
import { clientLinkMisses, TOO_MANY_MISSES } from "./client-limits.ts";
import { countedMiss } from "./rate-limiter.ts";
import type { Connection } from "./connection.ts";
import { NOT_FOUND_MESSAGE } from "./public-share.ts";
import { linkCache } from "./link-cache.ts";
import { isRegistered, register } from "./registry.ts";
import { previewOf, type SharePreview } from "../share-preview.ts";
import { codedError } from "@gadgets/workshop-shared/errors";

/** Stores the share and adds it to the directory, owned by `workspaceId`. */
export async function storeShare(
  env: Env,
  kind: ShareKind,
  id: string,
  value: ShareSnapshot | SharedRunRecord,
  workspaceId: string,
): Promise<void> {
  await env.SHARES.get(env.SHARES.idFromName(id)).put(kind, JSON.stringify(value), previewOf(kind, value));
  await register(env, kind, id, workspaceId);
}

/**
 * What `read` answers of the share of that kind; undefined for unknown and malformed ids alike. Neither
 * touches a share's storage: malformed ids are refused here, unknown ones by the directory.
 */
async function readStored<T>(
  env: Env,
  kind: ShareKind,
  id: unknown,
  read: (store: DurableObjectStub<ShareStore>) => Promise<T | undefined>,
): Promise<T | undefined> {
  const checked = check(LinkIdSchema, id);
  if (!checked.ok) return undefined;
  const store = env.SHARES.get(env.SHARES.idFromName(checked.value));
  if (!(await isRegistered(env, kind, checked.value, async () => (await read(store)) !== undefined))) return undefined;
  return read(store);
}

/** The stored text of a share of that kind. */
export function readShare(env: Env, kind: ShareKind, id: unknown): Promise<string | undefined> {
  return readStored(env, kind, id, (store) => store.get(kind));
}

/** The preview of a share of that kind (its page's title and description), never reading the share itself. */
export function readSharePreview(env: Env, kind: ShareKind, id: unknown): Promise<SharePreview | undefined> {
  return readStored(env, kind, id, (store) => store.preview(kind));
}

/** The share of that kind, or a not-found error that is the same for malformed and unknown ids. */
export async function loadShare<T extends ShareSnapshot | SharedRunRecord>(
  connection: Connection,
  kind: ShareKind,
  id: unknown,
): Promise<T> {
  // Only this connection's and this client's own misses count: another client's never refuse it. The
  // client's miss is counted before the read and given back when the link is found (see countedMiss).
  if (connection.shareMisses >= MAX_SHARE_MISSES_PER_CONNECTION || !clientLinkMisses.take(connection.client))
    throw codedError("RATE_LIMITED", TOO_MANY_MISSES);
  const found = () => clientLinkMisses.giveBack(connection.client);
  // Cached values are keyed by well-formed ids only: anything else misses below.
  const cached = typeof id === "string" ? linkCache.get(kind, id) : undefined;
  if (cached) {
    found();
    return cached as T;
  }
  const text = await countedMiss(readShare(connection.env, kind, id), (read) => read === undefined, found);
  if (text === undefined) {
    connection.shareMisses++;
    throw codedError("NOT_FOUND", NOT_FOUND_MESSAGE);
  }
  return linkCache.parse(kind, id as string, text) as T;
}
