/**
 * Gadgets' kv, scoped to one gadget (the draft it was written from, shared by every agent version
 * published from it). Each gadget keeps at most `KV_MAX_TOTAL_BYTES`, every entry charged a fixed
 * overhead; the bytes are charged to the workspace's quota under `kv`. Key and value sizes are checked
 * by the caller.
 */

import { KV_ENTRY_OVERHEAD_BYTES, KV_MAX_LIST, KV_MAX_TOTAL_BYTES } from "@gadgets/workshop-shared/limits";
import { byteLength } from "@gadgets/workshop-shared/validate";
import type { UsageTable } from "./usage-table.ts";
import { storeError } from "./coded-errors.ts";

export class KvTable {
  constructor(
    private readonly sql: SqlStorage,
    private readonly usage: UsageTable,
  ) {}

  get(scope: string, key: string): string | null {
    return (
      this.sql.exec<{ value: string }>("SELECT value FROM kv WHERE scope = ? AND key = ?", scope, key).toArray()[0]
        ?.value ?? null
    );
  }

  /** Throws when the gadget's kv or the workspace's quota has no room for it. */
  put(scope: string, key: string, value: string): void {
    // Every entry is charged a fixed overhead too, so many tiny keys cannot outgrow the quota.
    const used = this.#scopeBytes(scope, key);
    const adding = byteLength(key) + byteLength(value) + KV_ENTRY_OVERHEAD_BYTES;
    if (used + adding > KV_MAX_TOTAL_BYTES) {
      throw storeError(
        "LIMIT_REACHED",
        `kv is full: this gadget may keep ${KV_MAX_TOTAL_BYTES} bytes (keys, values and ${KV_ENTRY_OVERHEAD_BYTES} bytes per entry), and ${used} are used. Delete keys it no longer needs.`,
      );
    }
    const growth = adding - this.#entryBytes(scope, key);
    this.usage.ensureRoom(growth);
    this.sql.exec("INSERT OR REPLACE INTO kv (scope, key, value) VALUES (?, ?, ?)", scope, key, value);
    this.usage.grow("kv", growth);
  }

  /** Whether there was an entry to delete. */
  delete(scope: string, key: string): boolean {
    const old = this.#entryBytes(scope, key);
    this.sql.exec("DELETE FROM kv WHERE scope = ? AND key = ?", scope, key);
    this.usage.grow("kv", -old);
    return old > 0;
  }

  /** The first `KV_MAX_LIST` keys that start with `prefix`, in order. */
  list(scope: string, prefix: string): string[] {
    // SQLite measures the prefix itself, so the comparison counts characters the same way on both sides.
    return this.sql
      .exec<{ key: string }>(
        "SELECT key FROM kv WHERE scope = ? AND substr(key, 1, length(?)) = ? ORDER BY key LIMIT ?",
        scope,
        prefix,
        prefix,
        KV_MAX_LIST,
      )
      .toArray()
      .map((row) => row.key);
  }

  /** Deletes everything the gadget keeps. */
  deleteScope(scope: string): void {
    this.usage.grow("kv", -this.#scopeBytes(scope, undefined));
    this.sql.exec("DELETE FROM kv WHERE scope = ?", scope);
  }

  /** Bytes of a gadget's kv (keys, values, per-entry overhead), leaving out `exceptKey`. */
  #scopeBytes(scope: string, exceptKey: string | undefined): number {
    return this.sql
      .exec<{ used: number }>(
        "SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) + ?), 0) AS used FROM kv WHERE scope = ? AND key IS NOT ?",
        KV_ENTRY_OVERHEAD_BYTES,
        scope,
        exceptKey ?? null,
      )
      .one().used;
  }

  /** What one entry costs (0 when there is none). */
  #entryBytes(scope: string, key: string): number {
    return (
      this.sql
        .exec<{ n: number }>(
          "SELECT length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) + ? AS n FROM kv WHERE scope = ? AND key = ?",
          KV_ENTRY_OVERHEAD_BYTES,
          scope,
          key,
        )
        .toArray()[0]?.n ?? 0
    );
  }
}
