/**
 * Whether an id exists, asked of the directory before any Durable Object of that id is touched. Known
 * ids are remembered per Worker isolate (ids are never deleted, so a remembered yes stays true).
 */

import { LRUCache } from "lru-cache";
import type { Env } from "../env.ts";
import type { DirectoryKind } from "../storage/directory.ts";

const known = new LRUCache<string, true>({ max: 10_000 });

const directory = (env: Env) => env.DIRECTORY.get(env.DIRECTORY.idFromName("directory"));

/**
 * Whether `id` of `kind` exists. `legacy` asks the object itself; it is only used for data written
 * before the directory existed (LEGACY_LOOKUPS set), and a yes from it is added to the directory.
 */
export async function isRegistered(
  env: Env,
  kind: DirectoryKind,
  id: string,
  legacy: () => Promise<boolean>,
): Promise<boolean> {
  const key = `${kind}:${id}`;
  if (known.get(key)) return true;
  const found = await directory(env).has(kind, id);
  if (found) {
    known.set(key, true);
    return true;
  }
  if (env.LEGACY_LOOKUPS !== "1" || !(await legacy())) return false;
  await register(env, kind, id, "");
  return true;
}

export async function register(env: Env, kind: DirectoryKind, id: string, owner: string): Promise<void> {
  await directory(env).add(kind, id, owner);
  known.set(`${kind}:${id}`, true);
}

/** The workspace owning an endpoint, remembered per Worker isolate (an endpoint never changes owner). */
const endpointOwners = new LRUCache<string, string>({ max: 10_000 });

/** The workspace `endpoint` (an id or a name) belongs to, or undefined when no workspace has it. */
export async function endpointOwner(env: Env, endpoint: string): Promise<string | undefined> {
  const known = endpointOwners.get(endpoint);
  if (known) return known;
  const owner = await directory(env).ownerOf("endpoint", endpoint);
  if (owner) endpointOwners.set(endpoint, owner);
  return owner;
}

/** Whether this isolate already knows `endpoint`'s owner (a request to it costs no directory lookup). */
export function isKnownEndpoint(endpoint: string): boolean {
  return endpointOwners.has(endpoint);
}

/**
 * Takes an endpoint name (or registers an id) for a workspace: "new" when this took it, "held" when the
 * workspace had it already, "refused" when another workspace holds it.
 */
export async function claimEndpoint(
  env: Env,
  endpoint: string,
  workspaceId: string,
): Promise<"new" | "held" | "refused"> {
  if (endpointOwners.get(endpoint) === workspaceId) return "held";
  const claimed = await directory(env).claim("endpoint", endpoint, workspaceId);
  if (claimed !== "refused") endpointOwners.set(endpoint, workspaceId);
  return claimed;
}

/** Gives back a name a workspace claimed for a publish that failed. */
export async function releaseEndpoint(env: Env, endpoint: string, workspaceId: string): Promise<void> {
  endpointOwners.delete(endpoint);
  await directory(env).release("endpoint", endpoint, workspaceId);
}
