/**
 * The workspace's API keys (`api_keys`): each key's SHA-256 (the key itself is never stored), its name,
 * scope, the agents it is limited to (null: all) and when it was made and last used. A revoked key's
 * row is deleted, so the very next lookup of it finds nothing.
 */

import type { ApiKeyInfo, ApiKeyScope } from "@gadgets/workshop-shared/api";
import { MAX_API_KEYS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { randomId } from "./ids.ts";

interface KeyRow extends Record<string, SqlStorageValue> {
  key_id: string;
  name: string;
  scope: string;
  agents: string | null;
  created_at: number;
  last_used_at: number | null;
}

/** A key to make: what `createKey` was given, its agents already found (by id). */
export interface NewKey {
  name: string;
  scope: ApiKeyScope;
  agents: string[] | null;
}

export type KeyCreation =
  | { status: "created"; info: ApiKeyInfo }
  | { status: "refused"; code: "LIMIT_REACHED" | "AGENT_NOT_FOUND"; message: string };

/** Last use is kept to the minute: a key used all the time writes its row once a minute at most. */
export function minuteOf(now: number): number {
  return now - (now % 60_000);
}

const COLUMNS = "key_id, name, scope, agents, created_at, last_used_at";

function infoOf(row: KeyRow): ApiKeyInfo {
  return {
    keyId: row.key_id,
    name: row.name,
    scope: row.scope as ApiKeyScope,
    agents: row.agents === null ? null : (JSON.parse(row.agents) as string[]),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

export class KeyTable {
  constructor(private readonly sql: SqlStorage) {}

  /** Stores a new key by its hash; refused past MAX_API_KEYS_PER_WORKSPACE. */
  create(keyHash: string, key: NewKey, now: number): KeyCreation {
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM api_keys").one().n;
    if (count >= MAX_API_KEYS_PER_WORKSPACE)
      return {
        status: "refused",
        code: "LIMIT_REACHED",
        message: `This workspace already has ${MAX_API_KEYS_PER_WORKSPACE} API keys, the limit. Revoke keys no longer used (gadgets keys list, gadgets keys revoke <keyId>) first.`,
      };
    const keyId = randomId();
    const agents = key.agents === null ? null : JSON.stringify(key.agents);
    this.sql.exec(
      `INSERT INTO api_keys (key_hash, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL)`,
      keyHash,
      keyId,
      key.name,
      key.scope,
      agents,
      now,
    );
    return {
      status: "created",
      info: { keyId, name: key.name, scope: key.scope, agents: key.agents, createdAt: now, lastUsedAt: null },
    };
  }

  /** Every key, oldest first; never a key's hash. */
  list(): ApiKeyInfo[] {
    return this.sql.exec<KeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, key_id`).toArray().map(infoOf);
  }

  /** The key whose hash this is, marked used at `now`; undefined when there is none (revoked, or never made). */
  use(keyHash: string, now: number): ApiKeyInfo | undefined {
    return this.#used(this.sql.exec<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`, keyHash), now);
  }

  /** The key with this id, marked used at `now`; undefined once it is revoked. */
  useById(keyId: string, now: number): ApiKeyInfo | undefined {
    return this.#used(this.sql.exec<KeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_id = ?`, keyId), now);
  }

  /** Deletes the key; false when there was no such key. */
  revoke(keyId: string): boolean {
    const found = this.sql.exec("SELECT 1 FROM api_keys WHERE key_id = ?", keyId).toArray().length > 0;
    if (found) this.sql.exec("DELETE FROM api_keys WHERE key_id = ?", keyId);
    return found;
  }

  #used(rows: Iterable<KeyRow>, now: number): ApiKeyInfo | undefined {
    const [row] = [...rows];
    if (!row) return undefined;
    const minute = minuteOf(now);
    // Read first, written only when the minute changed: most uses write nothing.
    if (row.last_used_at === null || row.last_used_at < minute) {
      this.sql.exec("UPDATE api_keys SET last_used_at = ? WHERE key_id = ?", minute, row.key_id);
      row.last_used_at = minute;
    }
    return infoOf(row);
  }
}
