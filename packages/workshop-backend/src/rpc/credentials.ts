/**
 * Authentication, in one place: a workspace token (`gw_…`, the owner) or an API key (`gk_…`, scoped) is
 * checked here and nowhere else, for `getSession` (Cap'n Web) and for the MCP route (HTTP) alike. A
 * credential is only ever hashed and compared: nothing here logs, stores or reports one.
 *
 * A miss (an unknown token or key) is counted per connection (or request) and per client, and the
 * directory is asked first, so a miss touches no workspace's storage.
 */

import type { ApiKeyInfo, ApiKeyScope, WorkspaceSettings } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import { MAX_FAILED_SESSIONS_PER_CONNECTION } from "@gadgets/workshop-shared/limits";
import {
  API_KEY_PREFIX,
  API_KEY_WORKSPACE_ID_LENGTH,
  check,
  SessionCredentialSchema,
} from "@gadgets/workshop-shared/schemas";
import type { Env } from "../env.ts";
import { apiKeyHash, workspaceIdFor } from "../storage/ids.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { clientCredentialMisses, TOO_MANY_MISSES } from "./client-limits.ts";
import { countedMiss } from "./rate-limiter.ts";
import { isRegistered } from "./registry.ts";
import { codedStub } from "../storage/coded-errors.ts";

/** What the caller may do: everything (the workspace token), or what an API key's scope allows. */
export type Access =
  | { kind: "owner" }
  | { kind: "key"; keyId: string; name: string; scope: ApiKeyScope; agents: string[] | null };

export const OWNER_ACCESS: Access = { kind: "owner" };

export type Authenticated =
  | {
      ok: true;
      workspaceId: string;
      store: DurableObjectStub<WorkspaceStore>;
      access: Access;
      /** The workspace's settings as the session starts. */
      settings: WorkspaceSettings;
    }
  | { ok: false; code: "INVALID_TOKEN" | "UNKNOWN_TOKEN" | "RATE_LIMITED"; message: string };

/** The misses of one connection (a Cap'n Web `Connection` has this field) or of one HTTP request. */
export interface MissCount {
  failedSessions: number;
}

const UNKNOWN_TOKEN = "Unknown workspace token: no workspace belongs to it. Create a workspace with createWorkspace().";
const UNKNOWN_KEY =
  "Unknown API key: it was revoked, or no workspace has it. Ask the workspace's owner for a key (gadgets keys create).";
export const REVOKED_KEY = "This API key was revoked. Ask the workspace's owner for a new one (gadgets keys create).";

function accessOf(key: ApiKeyInfo): Access {
  return { kind: "key", keyId: key.keyId, name: key.name, scope: key.scope, agents: key.agents };
}

/**
 * Who `credential` is, in which workspace. `client` is the caller's key for per-client limits
 * (client-key.ts); `misses` is the connection's (or request's) own count, raised on each miss.
 */
export async function authenticate(
  env: Env,
  client: string,
  credential: unknown,
  misses: MissCount,
): Promise<Authenticated> {
  // A malformed credential has its own code, so clients can tell it from an unknown one.
  const checked = check(SessionCredentialSchema, credential);
  if (!checked.ok) return { ok: false, code: "INVALID_TOKEN", message: checked.error };
  // Only this connection's and this client's own misses count here: another client's never do. The
  // client's miss is counted before the lookups and given back once the credential is found (or a lookup
  // failed): a burst of guesses gets no more lookups than its budget, while a burst of good ones (a
  // connection opening its sessions at once) all go.
  if (misses.failedSessions >= MAX_FAILED_SESSIONS_PER_CONNECTION || !clientCredentialMisses.take(client))
    return { ok: false, code: "RATE_LIMITED", message: TOO_MANY_MISSES };
  const found = await countedMiss(
    identify(env, checked.value),
    (found) => !found.ok,
    () => clientCredentialMisses.giveBack(client),
  );
  if (!found.ok) misses.failedSessions++;
  return found;
}

/** Looks a well-formed token or key up: the directory first, so an unknown one never touches (nor creates) a workspace's storage. */
async function identify(env: Env, secret: string): Promise<Authenticated> {
  const isKey = secret.startsWith(API_KEY_PREFIX);
  const workspaceId = isKey
    ? secret.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_WORKSPACE_ID_LENGTH)
    : await workspaceIdFor(secret);
  const store = codedStub(env.WORKSPACES.get(env.WORKSPACES.idFromName(workspaceId)));
  const unknown: Authenticated = { ok: false, code: "UNKNOWN_TOKEN", message: isKey ? UNKNOWN_KEY : UNKNOWN_TOKEN };
  if (!(await isRegistered(env, "workspace", workspaceId, () => store.exists()))) return unknown;
  if (!isKey) {
    const opened = await store.openSession();
    return opened.exists ? { ok: true, workspaceId, store, access: OWNER_ACCESS, settings: opened.settings } : unknown;
  }
  const opened = await store.openKeySession(await apiKeyHash(secret));
  return opened.key
    ? { ok: true, workspaceId, store, access: accessOf(opened.key), settings: opened.settings }
    : unknown;
}

/** Whether the key still exists (not revoked); marks it used. One Durable Object call. */
export async function keyStillValid(store: DurableObjectStub<WorkspaceStore>, keyId: string): Promise<boolean> {
  return (await store.useKey(keyId)) !== undefined;
}

/**
 * Refuses with FORBIDDEN once `access`'s key is revoked: asked before every call of a key's session, so
 * a revocation ends live sessions at once. The workspace token is never asked about.
 */
export async function confirmAccess(store: DurableObjectStub<WorkspaceStore>, access: Access): Promise<void> {
  if (access.kind === "owner") return;
  if (!(await keyStillValid(store, access.keyId))) throw codedError("FORBIDDEN", REVOKED_KEY);
}

/** Whether `access` may list and run this agent: a key limited to agents names it by id. */
export function allowsAgent(access: Access, agent: { agentId: string; name?: string }): boolean {
  return access.kind === "owner" || access.agents === null || access.agents.includes(agent.agentId);
}
