/**
 * The directory of ids that exist: workspaces, shares and run records. Lookups of an id check here
 * first, so an unknown token or link never reaches (and never creates) a Durable Object of its own.
 * One Durable Object for the whole Workshop; each row is a few dozen bytes.
 */

import { DurableObject } from "cloudflare:workers";

export type DirectoryKind = "workspace" | "snapshot" | "record";

export class Directory extends DurableObject<unknown> {
  readonly #sql: SqlStorage;

  #ready = false;

  // Stores read no bindings: the Worker hands them what they need.
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
  }

  /** The table exists once the first id is added: asking about an id never writes. */
  #hasTable(): boolean {
    this.#ready ||=
      this.#sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entries'").toArray().length > 0;
    return this.#ready;
  }

  has(kind: DirectoryKind, id: string): boolean {
    if (!this.#hasTable()) return false;
    return this.#sql.exec("SELECT 1 FROM entries WHERE id = ? AND kind = ?", id, kind).toArray().length > 0;
  }

  /** `owner` is the workspace a share or record was made from ("" for a workspace itself). */
  add(kind: DirectoryKind, id: string, owner: string): void {
    if (!this.#hasTable()) {
      this.#sql.exec(
        "CREATE TABLE IF NOT EXISTS entries (id TEXT PRIMARY KEY, kind TEXT NOT NULL, owner TEXT NOT NULL, created_at INTEGER NOT NULL)",
      );
      this.#ready = true;
    }
    this.#sql.exec(
      "INSERT OR IGNORE INTO entries (id, kind, owner, created_at) VALUES (?, ?, ?, ?)",
      id,
      kind,
      owner,
      Date.now(),
    );
  }
}
