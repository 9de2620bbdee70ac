/**
 * Immutable shares: one Durable Object per share or record id, holding exactly one value written once.
 * Ids are 128 random bits, so they cannot be enumerated; a stored value never changes.
 */

import { DurableObject } from "cloudflare:workers";

export type ShareKind = "snapshot" | "record";

export class ShareStore extends DurableObject<unknown> {
  readonly #sql: SqlStorage;

  // Stores read no bindings: the Worker hands them what they need.
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
  }

  /** Looking up an id that was never shared writes nothing: the table exists only once a share does. */
  #exists(): boolean {
    return this.#sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'share'").toArray().length > 0;
  }

  /** Stores the value; refuses to overwrite (a share never changes). */
  put(kind: ShareKind, value: string): void {
    if (this.#exists()) throw new Error("This share already exists and cannot change.");
    this.#sql.exec("CREATE TABLE share (kind TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL)");
    this.#sql.exec("INSERT INTO share (kind, value, created_at) VALUES (?, ?, ?)", kind, value, Date.now());
  }

  /** The stored value when it is of `kind`; undefined otherwise (no hint whether the id exists). */
  get(kind: ShareKind): string | undefined {
    if (!this.#exists()) return undefined;
    const row = this.#sql.exec<{ kind: string; value: string }>("SELECT kind, value FROM share").toArray()[0];
    return row && row.kind === kind ? row.value : undefined;
  }
}
