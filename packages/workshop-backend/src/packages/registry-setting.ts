/**
 * Which registry a workspace resolves against: the Workshop's default (`NPM_REGISTRY`, else the public
 * npm registry), or the workspace's own, set with `setRegistry`. A private registry's token is sealed
 * with the secrets key before the workspace store sees it (as secrets are) and opened only here, for
 * requests to that registry: no answer, log line or browser ever carries it.
 */

import type { RegistryInfo, RegistryInput } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import type { Env } from "../env.ts";
import { secretsKey } from "../rpc/secrets.ts";
import { openSecret, sealSecret } from "../secret-crypto.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { PackageError } from "./package-error.ts";
import type { RegistryFetch } from "./registry-client.ts";
import { PUBLIC_NPM_REGISTRY, registryBase, registryUrlProblem } from "./registry-url.ts";

/** The name the token is sealed under (additional data): a secret's name cannot hold a space. */
const TOKEN_NAME = "npm registry token";

export interface WorkspaceRegistry {
  /** The checked base URL, ending in "/". */
  base: string;
  token?: string;
  /** False when the workspace set its own: its packages are then stored for it alone. */
  isDefault: boolean;
}

export const allowsLocalRegistry = (env: Env): boolean => env.ALLOW_LOCAL_REGISTRY === "1";

/** How registry requests leave the Worker: locally through their own network service. */
export function registryFetch(env: Env): RegistryFetch {
  const outbound = env.REGISTRY_FETCH;
  return outbound ? (request) => outbound.fetch(request) : (request) => fetch(request);
}

export function defaultRegistry(env: Env): string {
  return registryBase(env.NPM_REGISTRY || PUBLIC_NPM_REGISTRY, allowsLocalRegistry(env));
}

type Store = DurableObjectStub<WorkspaceStore>;

/** The workspace's registry with its token opened, for requests only. */
export async function workspaceRegistry(env: Env, workspaceId: string, store: Store): Promise<WorkspaceRegistry> {
  const stored = await store.registry();
  if (!stored) return { base: defaultRegistry(env), isDefault: true };
  const base = registryBase(stored.url, allowsLocalRegistry(env));
  if (!stored.token) return { base, isDefault: false };
  let token: string;
  try {
    token = await openSecret(await secretsKey(env), workspaceId, TOKEN_NAME, stored.token);
  } catch {
    throw new PackageError(
      "registry-unreachable",
      "The workspace's registry token could not be opened (it was set under another SECRETS_KEY than this Workshop's). Set the registry again with its token.",
    );
  }
  return { base, token, isDefault: false };
}

export async function registryInfo(env: Env, store: Store): Promise<RegistryInfo> {
  const stored = await store.registry();
  return stored
    ? { url: stored.url, isDefault: false, hasToken: stored.token !== undefined }
    : { url: defaultRegistry(env), isDefault: true, hasToken: false };
}

/** Sets the workspace's registry (`input` checked by the caller); null goes back to the Workshop's default. */
export async function setWorkspaceRegistry(
  env: Env,
  workspaceId: string,
  store: Store,
  input: RegistryInput | null,
): Promise<RegistryInfo> {
  if (!input) {
    await store.setRegistry(undefined);
    return registryInfo(env, store);
  }
  const problem = registryUrlProblem(input.url, allowsLocalRegistry(env));
  if (problem) throw codedError("INVALID_ARGUMENT", problem, TypeError);
  const url = registryBase(input.url, allowsLocalRegistry(env));
  const token = input.token ? await sealSecret(await secretsKey(env), workspaceId, TOKEN_NAME, input.token) : undefined;
  await store.setRegistry({ url, ...(token ? { token } : {}) });
  return registryInfo(env, store);
}
