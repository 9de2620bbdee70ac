/**
 * The one row of a share's Durable Object: its kind, its value (written once, never changed) and the
 * preview its page shows (`share-preview.ts`). Looking up an id that was never shared writes nothing:
 * the table exists only once a share does.
 */

import { previewOfStored, type SharePreview } from "../share-preview.ts";
import type { ShareKind } from "./share-store.ts";

export class ShareTable {
  readonly #sql: SqlStorage;
  /** Whether the table has its `preview` column (shares stored before previews were kept have not). */
  #hasPreview = false;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  #exists(): boolean {
    return this.#sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'share'").toArray().length > 0;
  }

  /** Stores the value and its preview; refuses to overwrite (a share never changes). */
  put(kind: ShareKind, value: string, preview: SharePreview): void {
    if (this.#exists()) throw new Error("This share already exists and cannot change.");
    this.#sql.exec(
      "CREATE TABLE share (kind TEXT NOT NULL, value TEXT NOT NULL, created_at INTEGER NOT NULL, preview TEXT)",
    );
    this.#sql.exec(
      "INSERT INTO share (kind, value, created_at, preview) VALUES (?, ?, ?, ?)",
      kind,
      value,
      Date.now(),
      JSON.stringify(preview),
    );
    this.#hasPreview = true;
  }

  /** The stored value when it is of `kind`; undefined otherwise (no hint whether the id exists). */
  get(kind: ShareKind): string | undefined {
    if (!this.#exists()) return undefined;
    const row = this.#sql.exec<{ kind: string; value: string }>("SELECT kind, value FROM share").toArray()[0];
    return row && row.kind === kind ? row.value : undefined;
  }

  /**
   * The preview of the share when it is of `kind`, without reading its value. A share stored before
   * previews were kept gets one made from its value, this once, and kept.
   */
  preview(kind: ShareKind): SharePreview | undefined {
    if (!this.#exists()) return undefined;
    this.#addPreviewColumn();
    const row = this.#sql
      .exec<{ kind: string; preview: string | null }>("SELECT kind, preview FROM share")
      .toArray()[0];
    if (!row || row.kind !== kind) return undefined;
    if (row.preview !== null) return JSON.parse(row.preview) as SharePreview;
    const made = previewOfStored(kind, this.get(kind) ?? "{}");
    this.#sql.exec("UPDATE share SET preview = ?", JSON.stringify(made));
    return made;
  }

  #addPreviewColumn(): void {
    if (this.#hasPreview) return;
    const columns = this.#sql.exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE name = 'share'").one().sql;
    if (!/\bpreview\b/.test(columns)) this.#sql.exec("ALTER TABLE share ADD COLUMN preview TEXT");
    this.#hasPreview = true;
  }
}
