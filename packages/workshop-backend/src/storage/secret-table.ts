/**
 * The workspace's secrets (`secrets`): each one's name, its value sealed by the Worker (secret-crypto.ts:
 * AES-GCM; this object never sees the key or a value in clear), the value's size and when it was set.
 */

import { MAX_SECRETS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import type { SealedSecret } from "../secret-crypto.ts";

/** A secret as listed: never its value. */
export interface SecretRow {
  name: string;
  bytes: number;
  updatedAt: number;
}

export type SecretWrite = { status: "set"; secret: SecretRow } | { status: "refused"; message: string };

interface StoredRow extends Record<string, SqlStorageValue> {
  name: string;
  iv: string;
  data: string;
  bytes: number;
  updated_at: number;
}

export class SecretTable {
  constructor(private readonly sql: SqlStorage) {}

  /** Sets or replaces a secret; a new name past MAX_SECRETS_PER_WORKSPACE is refused. */
  set(name: string, sealed: SealedSecret, bytes: number, now: number): SecretWrite {
    const exists = this.sql.exec("SELECT 1 FROM secrets WHERE name = ?", name).toArray().length > 0;
    if (!exists) {
      const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM secrets").one().n;
      if (count >= MAX_SECRETS_PER_WORKSPACE)
        return {
          status: "refused",
          message: `This workspace already has ${MAX_SECRETS_PER_WORKSPACE} secrets, the limit. Delete secrets no longer used (gadgets secrets rm NAME) first.`,
        };
    }
    this.sql.exec(
      "INSERT OR REPLACE INTO secrets (name, iv, data, bytes, updated_at) VALUES (?, ?, ?, ?, ?)",
      name,
      sealed.iv,
      sealed.data,
      bytes,
      now,
    );
    return { status: "set", secret: { name, bytes, updatedAt: now } };
  }

  /** Every secret by name, never a value. */
  list(): SecretRow[] {
    return this.sql
      .exec<StoredRow>("SELECT name, bytes, updated_at FROM secrets ORDER BY name")
      .toArray()
      .map((row) => ({ name: row.name, bytes: row.bytes, updatedAt: row.updated_at }));
  }

  /**
   * The sealed values of those of `names` that are set. All rows are read and filtered here: a workspace
   * has at most MAX_SECRETS_PER_WORKSPACE, and SQL bindings per query are few on Durable Objects.
   */
  read(names: readonly string[]): { name: string; sealed: SealedSecret }[] {
    if (names.length === 0) return [];
    const wanted = new Set(names);
    return this.sql
      .exec<StoredRow>("SELECT name, iv, data FROM secrets")
      .toArray()
      .filter((row) => wanted.has(row.name))
      .map((row) => ({ name: row.name, sealed: { iv: row.iv, data: row.data } }));
  }

  /** False when there was no secret by that name. */
  delete(name: string): boolean {
    const found = this.sql.exec("SELECT 1 FROM secrets WHERE name = ?", name).toArray().length > 0;
    if (found) this.sql.exec("DELETE FROM secrets WHERE name = ?", name);
    return found;
  }
}
