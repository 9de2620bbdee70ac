/**
 * The directory of ids that exist: workspaces, shares, run records and HTTP endpoints. Lookups of an id check here
 * first, so an unknown token or link never reaches (and never creates) a Durable Object of its own.
 * One Durable Object for the whole Workshop; each row is a few dozen bytes.
 */

import { DurableObject } from "cloudflare:workers";

/** An `endpoint` is an HTTP endpoint's path segment (`/h/<endpoint>`): an unguessable id or a chosen name. */
export type DirectoryKind = "workspace" | "snapshot" | "record" | "endpoint";

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

  /** The workspace an entry belongs to ("" for a workspace itself); undefined when there is none of that kind. */
  ownerOf(kind: DirectoryKind, id: string): string | undefined {
    if (!this.#hasTable()) return undefined;
    return this.#sql
      .exec<{ owner: string }>("SELECT owner FROM entries WHERE id = ? AND kind = ?", id, kind)
      .toArray()[0]?.owner;
  }

  /**
   * Takes `id` for `owner` unless someone else holds it: true when it is (now) the owner's. One object
   * for the whole Workshop, so two workspaces claiming the same name cannot both win. An id of another
   * kind is taken too (ids are unique across kinds).
   */
  claim(kind: DirectoryKind, id: string, owner: string): "new" | "held" | "refused" {
    const held = this.#hasTable()
      ? this.#sql.exec<{ kind: string; owner: string }>("SELECT kind, owner FROM entries WHERE id = ?", id).toArray()[0]
      : undefined;
    if (held) return held.kind === kind && held.owner === owner ? "held" : "refused";
    this.add(kind, id, owner);
    return "new";
  }

  /** Gives back an id `owner` claimed for a write that then failed, so no name stays taken by nothing. */
  release(kind: DirectoryKind, id: string, owner: string): void {
    if (!this.#hasTable()) return;
    this.#sql.exec("DELETE FROM entries WHERE id = ? AND kind = ? AND owner = ?", id, kind, owner);
  }

  /** `owner` is the workspace a share, record or endpoint was made from ("" for a workspace itself). */
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
