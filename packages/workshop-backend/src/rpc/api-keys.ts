/**
 * Making, listing and revoking a workspace's API keys (`Session.createKey/listKeys/revokeKey`, the
 * workspace token's alone: see session-scope.ts). A key is made here and answered once; the workspace
 * keeps only its hash. Checking a key is credentials.ts's job.
 */

import type { ApiKeyInfo, CreatedKey } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import { ApiKeyIdSchema, CreateKeyInputSchema, parseArgument } from "@gadgets/workshop-shared/schemas";
import type { Env } from "../env.ts";
import { apiKeyHash, newApiKey } from "../storage/ids.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { checkDiskForWrite } from "./disk-guard.ts";

type Store = DurableObjectStub<WorkspaceStore>;

export async function createKey(env: Env, workspaceId: string, store: Store, input: unknown): Promise<CreatedKey> {
  const { name, scope, agents } = parseArgument(CreateKeyInputSchema, input);
  await checkDiskForWrite(env);
  const key = newApiKey(workspaceId);
  const made = await store.createKey(await apiKeyHash(key), { name, scope, agents: agents ?? null });
  if (made.status === "refused") throw codedError(made.code, made.message);
  return { key, info: made.info };
}

export function listKeys(store: Store): Promise<ApiKeyInfo[]> {
  return store.listKeys();
}

export function revokeKey(store: Store, keyId: unknown): Promise<boolean> {
  return store.revokeKey(parseArgument(ApiKeyIdSchema, keyId));
}
