/**
 * Workspace secrets for the session and for runs: values are sealed here in the Worker (secret-crypto.ts,
 * under the `SECRETS_KEY` binding) before the store sees them, never returned to any client, and opened
 * only for a run whose manifest grants them (run-launcher.ts hands `runSecrets` to the overseer).
 */

import type { SecretInfo } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import { parseArgument, SecretNameSchema, SecretValueSchema } from "@gadgets/workshop-shared/schemas";
import { byteLength } from "@gadgets/workshop-shared/validate";
import type { Env } from "../env.ts";
import type { RunSecrets } from "../overseer.ts";
import { importSecretsKey, openSecret, sealSecret } from "../secret-crypto.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { checkDiskForWrite } from "./disk-guard.ts";

const NO_KEY =
  "Secrets are not available on this Workshop: it has no SECRETS_KEY. On Cloudflare set one with `wrangler secret put SECRETS_KEY` (base64 of 32 random bytes: openssl rand -base64 32); the local Workshop keeps one in a key file beside its data folder (pnpm start --secrets-key FILE).";

/** The imported key, per key text (one in practice): importing once per Worker isolate. */
const keys = new Map<string, Promise<CryptoKey>>();

export async function secretsKey(env: Env): Promise<CryptoKey> {
  const text = env.SECRETS_KEY;
  if (!text) throw new Error(NO_KEY);
  let key = keys.get(text);
  if (!key) {
    key = importSecretsKey(text);
    keys.set(text, key);
    key.catch(() => keys.delete(text));
  }
  return key;
}

type Store = DurableObjectStub<WorkspaceStore>;

export async function setSecret(
  env: Env,
  workspaceId: string,
  store: Store,
  name: unknown,
  value: unknown,
): Promise<SecretInfo> {
  const checkedName = parseArgument(SecretNameSchema, name);
  const checkedValue = parseArgument(SecretValueSchema, value);
  const key = await secretsKey(env);
  await checkDiskForWrite(env);
  const sealed = await sealSecret(key, workspaceId, checkedName, checkedValue);
  const written = await store.setSecret(checkedName, sealed, byteLength(checkedValue));
  if (written.status === "refused") throw codedError("LIMIT_REACHED", written.message);
  const listed = (await store.listSecrets()).find((secret) => secret.name === checkedName);
  return listed ?? { ...written.secret, usedBy: [] };
}

export async function listSecrets(store: Store): Promise<SecretInfo[]> {
  return store.listSecrets();
}

export async function deleteSecret(store: Store, name: unknown): Promise<boolean> {
  return store.deleteSecret(parseArgument(SecretNameSchema, name));
}

/**
 * What a workspace run reads its granted secrets through. A run granted secrets none of which is set
 * needs no key; one whose secrets are stored but cannot be opened ends with a message that says why.
 */
export function runSecrets(env: Env, workspaceId: string, store: Store): RunSecrets {
  return {
    async read(names) {
      const rows = await store.readSecrets([...names]);
      const values = new Map<string, string>();
      if (rows.length === 0) return values;
      const key = await secretsKey(env);
      for (const row of rows) {
        try {
          values.set(row.name, await openSecret(key, workspaceId, row.name, row.sealed));
        } catch {
          throw new Error(
            `The secret ${row.name} could not be opened: it was set under another SECRETS_KEY than this Workshop's. Set it again (gadgets secrets set ${row.name}).`,
          );
        }
      }
      return values;
    },
  };
}
