/**
 * A workspace's quota accounting: the bytes stored per category, kept up to date by every write, and
 * the shares and records made from the workspace (stored elsewhere, charged here). The arithmetic of a
 * refusal is in quota.ts.
 */

import type { WorkspaceUsage } from "@gadgets/workshop-shared/api";
import { WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";
import { quotaRefusal, USAGE_CATEGORIES, type UsageCategory } from "./quota.ts";
import { storeError } from "./coded-errors.ts";

export class UsageTable {
  constructor(private readonly sql: SqlStorage) {}

  bytes(): Record<UsageCategory, number> {
    const bytes: Record<UsageCategory, number> = { drafts: 0, versions: 0, records: 0, kv: 0, shares: 0, packages: 0 };
    for (const row of this.sql.exec<{ category: UsageCategory; bytes: number }>("SELECT * FROM usage").toArray())
      bytes[row.category] = row.bytes;
    return bytes;
  }

  usage(): WorkspaceUsage {
    const bytes = this.bytes();
    return {
      quotaBytes: WORKSPACE_QUOTA_BYTES,
      usedBytes: USAGE_CATEGORIES.reduce((total, category) => total + bytes[category], 0),
      bytes,
    };
  }

  grow(category: UsageCategory, delta: number): void {
    if (delta !== 0) this.sql.exec("UPDATE usage SET bytes = MAX(0, bytes + ?) WHERE category = ?", delta, category);
  }

  /** Throws the quota's message when growing by `growth` bytes would pass it. */
  ensureRoom(growth: number): void {
    const refusal = this.#refusal(growth);
    if (refusal) throw storeError("LIMIT_REACHED", refusal);
  }

  #refusal(growth: number): string | undefined {
    const used = this.sql.exec<{ n: number }>("SELECT COALESCE(SUM(bytes), 0) AS n FROM usage").one().n;
    // The breakdown is read only for a refusal.
    return quotaRefusal(used, growth) && quotaRefusal(used, growth, undefined, this.bytes());
  }

  /**
   * Charges a package stored for this workspace alone (from its own registry), once per integrity, before
   * it is written; answers the quota's message instead when it does not fit, charging nothing.
   */
  chargePackage(integrity: string, name: string, version: string, bytes: number): string | undefined {
    if (this.sql.exec("SELECT 1 FROM package_charges WHERE integrity = ?", integrity).toArray().length > 0) return;
    const refusal = this.#refusal(bytes);
    if (refusal) return refusal;
    this.sql.exec(
      "INSERT INTO package_charges (integrity, name, version, bytes, charged_at) VALUES (?, ?, ?, ?, ?)",
      integrity,
      name,
      version,
      bytes,
      Date.now(),
    );
    this.grow("packages", bytes);
    return undefined;
  }

  /** Gives back the charge of a package whose write failed (nothing of it is visible in the store). */
  refundPackage(integrity: string): void {
    const row = this.sql
      .exec<{ bytes: number }>("SELECT bytes FROM package_charges WHERE integrity = ?", integrity)
      .toArray()[0];
    if (!row) return;
    this.sql.exec("DELETE FROM package_charges WHERE integrity = ?", integrity);
    this.grow("packages", -row.bytes);
  }

  /** Charges a share or record made from this workspace (stored elsewhere) to its quota. */
  chargeShare(kind: "snapshot" | "record", id: string, bytes: number): void {
    this.ensureRoom(bytes);
    this.sql.exec("INSERT INTO shares (id, kind, bytes, created_at) VALUES (?, ?, ?, ?)", id, kind, bytes, Date.now());
    this.grow("shares", bytes);
  }
}
