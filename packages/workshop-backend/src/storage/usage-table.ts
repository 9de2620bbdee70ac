/**
 * A workspace's quota accounting: the bytes stored per category, kept up to date by every write, and
 * the shares and records made from the workspace (stored elsewhere, charged here). The arithmetic of a
 * refusal is in quota.ts.
 */

import type { WorkspaceUsage } from "@gadgets/workshop-shared/api";
import { WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";
import { quotaRefusal, USAGE_CATEGORIES, type UsageCategory } from "./quota.ts";

export class UsageTable {
  constructor(private readonly sql: SqlStorage) {}

  bytes(): Record<UsageCategory, number> {
    const bytes: Record<UsageCategory, number> = { drafts: 0, versions: 0, records: 0, kv: 0, shares: 0 };
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
    const used = this.sql.exec<{ n: number }>("SELECT COALESCE(SUM(bytes), 0) AS n FROM usage").one().n;
    const refusal = quotaRefusal(used, growth);
    if (refusal) throw new Error(refusal);
  }

  /** Charges a share or record made from this workspace (stored elsewhere) to its quota. */
  chargeShare(kind: "snapshot" | "record", id: string, bytes: number): void {
    this.ensureRoom(bytes);
    this.sql.exec("INSERT INTO shares (id, kind, bytes, created_at) VALUES (?, ?, ?, ?)", id, kind, bytes, Date.now());
    this.grow("shares", bytes);
  }
}
