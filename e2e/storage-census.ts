/**
 * Counts what a data folder holds: one SQLite file per storage object, against the objects the
 * directory says were created. Equal counts mean no lookup, miss or abuse left a stray object behind.
 */

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** One per object; workerd's own `metadata.sqlite` of each namespace is not an object. */
const sqliteFiles = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite") : [];

export interface StorageCensus {
  workspaceFiles: number;
  shareFiles: number;
  /** Objects created, by kind, as the directory lists them. */
  created: { workspace: number; snapshot: number; record: number };
}

/** `workspacesDir` is the Workshop's Durable Object folder (`<data>/workspaces`); read it with the server stopped. */
export function storageCensus(workspacesDir: string): StorageCensus {
  const created = { workspace: 0, snapshot: 0, record: 0 };
  const [directoryFile, ...extra] = sqliteFiles(join(workspacesDir, "gadget-workshop-Directory"));
  if (extra.length > 0) throw new Error("More than one directory object exists.");
  if (directoryFile) {
    const db = new DatabaseSync(join(workspacesDir, "gadget-workshop-Directory", directoryFile), { readOnly: true });
    try {
      const rows = db.prepare("SELECT kind, COUNT(*) AS n FROM entries GROUP BY kind").all() as {
        kind: keyof typeof created;
        n: number;
      }[];
      for (const row of rows) created[row.kind] = row.n;
    } finally {
      db.close();
    }
  }
  return {
    workspaceFiles: sqliteFiles(join(workspacesDir, "gadget-workshop-WorkspaceStore")).length,
    shareFiles: sqliteFiles(join(workspacesDir, "gadget-workshop-ShareStore")).length,
    created,
  };
}
