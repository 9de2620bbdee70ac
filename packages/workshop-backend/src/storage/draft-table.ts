/**
 * A workspace's drafts: the files being edited, each save a new version, a save on a stale version
 * refused as a conflict. Every write is charged to the workspace's quota under `drafts`.
 */

import {
  type Draft,
  type DraftSummary,
  type GadgetFile,
  MANIFEST_PATH,
  type SaveOutcome,
} from "@gadgets/workshop-shared/api";
import { MAX_DRAFTS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { byteLength, checkManifest } from "@gadgets/workshop-shared/validate";
import { randomId } from "./ids.ts";
import type { UsageTable } from "./usage-table.ts";
import { storeError } from "./coded-errors.ts";

type DraftRow = { id: string; name: string; version: number; files: string; created_at: number; updated_at: number };

function summary(row: DraftRow): DraftSummary {
  return { id: row.id, name: row.name, version: row.version, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** The manifest's name; a draft may be saved mid-edit with a broken manifest, so a readable name anyway. */
export function draftName(files: readonly GadgetFile[]): string {
  const manifest = checkManifest(files);
  if (manifest.ok) return manifest.value.name;
  const raw = files.find((file) => file.path === MANIFEST_PATH)?.content ?? "";
  const match = /"name"\s*:\s*"([^"]{1,64})"/.exec(raw);
  return match?.[1] ?? "untitled";
}

export class DraftTable {
  constructor(
    private readonly sql: SqlStorage,
    private readonly usage: UsageTable,
  ) {}

  list(): DraftSummary[] {
    return this.sql.exec<DraftRow>("SELECT * FROM drafts ORDER BY updated_at DESC").toArray().map(summary);
  }

  create(files: GadgetFile[]): Draft {
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM drafts").one().n;
    if (count >= MAX_DRAFTS_PER_WORKSPACE)
      throw storeError(
        "LIMIT_REACHED",
        `This workspace already has ${MAX_DRAFTS_PER_WORKSPACE} drafts, the limit. Delete some first.`,
      );
    const now = Date.now();
    const row: DraftRow = {
      id: randomId(),
      name: draftName(files),
      version: 1,
      files: JSON.stringify(files),
      created_at: now,
      updated_at: now,
    };
    const bytes = byteLength(row.files);
    this.usage.ensureRoom(bytes);
    this.sql.exec(
      "INSERT INTO drafts (id, name, version, files, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      row.id,
      row.name,
      row.version,
      row.files,
      row.created_at,
      row.updated_at,
    );
    this.usage.grow("drafts", bytes);
    return { ...summary(row), files };
  }

  /** Throws the not-found message when there is no such draft. */
  mustExist(draftId: string): void {
    this.#row(draftId);
  }

  get(draftId: string): Draft {
    const row = this.#row(draftId);
    return { ...summary(row), files: JSON.parse(row.files) as GadgetFile[] };
  }

  save(draftId: string, baseVersion: number, files: GadgetFile[]): SaveOutcome {
    const row = this.#row(draftId);
    if (row.version !== baseVersion) {
      return {
        status: "conflict",
        current: { ...summary(row), files: JSON.parse(row.files) as GadgetFile[] },
        message: `Draft "${row.name}" was changed elsewhere: your edit is based on version ${baseVersion}, the saved one is version ${row.version}. Nothing was overwritten; merge your changes into version ${row.version} and save again.`,
      };
    }
    const next: DraftRow = {
      ...row,
      name: draftName(files),
      version: row.version + 1,
      files: JSON.stringify(files),
      updated_at: Date.now(),
    };
    const growth = byteLength(next.files) - byteLength(row.files);
    this.usage.ensureRoom(growth);
    this.sql.exec(
      "UPDATE drafts SET name = ?, version = ?, files = ?, updated_at = ? WHERE id = ? AND version = ?",
      next.name,
      next.version,
      next.files,
      next.updated_at,
      draftId,
      baseVersion,
    );
    this.usage.grow("drafts", growth);
    return { status: "saved", draft: summary(next) };
  }

  /** Deletes the draft row alone; what hangs off it (test results, kv) is the caller's to remove. */
  delete(draftId: string): void {
    const row = this.#row(draftId);
    this.sql.exec("DELETE FROM drafts WHERE id = ?", draftId);
    this.usage.grow("drafts", -byteLength(row.files));
  }

  #row(draftId: string): DraftRow {
    const row = this.sql.exec<DraftRow>("SELECT * FROM drafts WHERE id = ?", draftId).toArray()[0];
    if (!row)
      throw storeError(
        "NOT_FOUND",
        `Draft ${draftId} was not found in this workspace. It may have been deleted; list drafts to see what exists.`,
      );
    return row;
  }
}
