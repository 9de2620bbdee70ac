/**
 * Package store objects for unit tests: the real table and migrations over Node's SQLite, one database
 * per object name, behind the async interface a Durable Object stub has.
 */

import { migrate } from "../../storage/migrations.ts";
import { sqliteStorage } from "../../storage/testing/sqlite-storage.ts";
import { PACKAGE_STORE_MIGRATIONS, PackageTable } from "../package-table.ts";
import type { OpenPackageStore, PackageStoreObject } from "../stored-packages.ts";
import type { WriteGuard } from "../write-guard.ts";

export class MemoryPackageStores {
  readonly tables = new Map<string, PackageTable>();
  /** Object names opened, in order (a workspace's object must never be opened for another). */
  readonly opened: string[] = [];
  /** Each commit's object and the room it asked for (a shared shard's `keepBytes`). */
  readonly commits: { name: string; keepBytes: number | undefined }[] = [];

  readonly open: OpenPackageStore = (name) => {
    this.opened.push(name);
    let table = this.tables.get(name);
    if (!table) {
      const storage = sqliteStorage();
      migrate(storage.sql, storage.transaction, PACKAGE_STORE_MIGRATIONS);
      table = new PackageTable(storage.sql);
      this.tables.set(name, table);
    }
    const found = table;
    const object: PackageStoreObject = {
      info: async (integrity) => found.info(integrity),
      putParts: async (integrity, parts) => found.putParts(integrity, parts),
      commit: async (integrity, info, expected, keepBytes) => {
        this.commits.push({ name, keepBytes });
        found.commit(integrity, info, expected, keepBytes);
      },
      discard: async (integrity) => found.discard(integrity),
      read: async (integrity, after, maxChars) => found.read(integrity, after, maxChars),
      file: async (integrity, path) => found.file(integrity, path),
    };
    return object;
  };

  /** Integrities committed in the object `name`. */
  stored(name: string): string[] {
    const table = this.tables.get(name);
    if (!table) return [];
    return (table as unknown as { sql: SqlStorage }).sql
      .exec<{ integrity: string }>("SELECT integrity FROM packages ORDER BY integrity")
      .toArray()
      .map((row) => row.integrity);
  }
}

/** Lets every write through (tests of everything but the write guard). */
export const ALWAYS_WRITE: WriteGuard = { reserve: async () => {}, release: async () => {} };
