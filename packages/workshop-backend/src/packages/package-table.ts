/**
 * The SQL of the package store: each verified package's files, content-addressed by its integrity. A
 * package's files are written first, in parts (a SQLite value stays under 2 MB), and its row in
 * `packages` last: only a package with that row exists, so a write cut off halfway leaves nothing any
 * reader sees. Rows are keyed by content, so writing the same package twice writes the same rows.
 */

import type { Migration } from "../storage/migrations.ts";

export const PACKAGE_STORE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    what: "packages by integrity (name, version, sizes, binary file names) and their text files in parts",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS packages (
  integrity TEXT PRIMARY KEY, name TEXT NOT NULL, version TEXT NOT NULL, files INTEGER NOT NULL,
  bytes INTEGER NOT NULL, binaries TEXT NOT NULL, has_types INTEGER NOT NULL, stored_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS package_files (
  integrity TEXT NOT NULL, path TEXT NOT NULL, part INTEGER NOT NULL, content TEXT NOT NULL,
  PRIMARY KEY (integrity, path, part));
`),
  },
  {
    version: 2,
    what: "when each package was last used, so a full shared shard drops the least recently used",
    up: (sql) =>
      sql.exec(`
ALTER TABLE packages ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0;
UPDATE packages SET used_at = stored_at;
CREATE INDEX IF NOT EXISTS packages_by_use ON packages (used_at);
`),
  },
];

/** How stale a package's mark of use may get before a read renews it: one write an hour, not one per read. */
const USE_MARK_MS = 60 * 60 * 1000;

/** What is known of a stored package without reading its files. */
export interface StoredPackageInfo {
  name: string;
  version: string;
  /** Text files. */
  files: number;
  /** Unpacked bytes of every file, binary ones included. */
  bytes: number;
  /** Files kept by name only (not UTF-8 text, or native addons). */
  binaries: string[];
  /** Whether the package carries its own declarations (else the resolver adds its `@types/…`). */
  types: boolean;
}

/** One part of one file: path, part number (0, 1, …), text. */
export type FilePart = [path: string, part: number, content: string];

export interface FilePage {
  /** On the first page (read from the start): the package's info, so one call finds and starts reading it. */
  info?: StoredPackageInfo;
  parts: FilePart[];
  /** Where the next page starts, when there is one. */
  next?: { path: string; part: number };
}

export class PackageTable {
  constructor(private readonly sql: SqlStorage) {}

  /** The package's info; a lookup is a use (a resolution that finds it locks it). */
  info(integrity: string): StoredPackageInfo | undefined {
    const info = this.#info(integrity);
    if (info) this.#markUsed(integrity);
    return info;
  }

  #markUsed(integrity: string): void {
    const now = Date.now();
    this.sql.exec(
      "UPDATE packages SET used_at = ? WHERE integrity = ? AND used_at < ?",
      now,
      integrity,
      now - USE_MARK_MS,
    );
  }

  #info(integrity: string): StoredPackageInfo | undefined {
    const row = this.sql
      .exec<{ name: string; version: string; files: number; bytes: number; binaries: string; has_types: number }>(
        "SELECT name, version, files, bytes, binaries, has_types FROM packages WHERE integrity = ?",
        integrity,
      )
      .toArray()[0];
    if (!row) return undefined;
    const { has_types, binaries, ...rest } = row;
    return { ...rest, binaries: JSON.parse(binaries) as string[], types: has_types === 1 };
  }

  putParts(integrity: string, parts: readonly FilePart[]): void {
    for (const [path, part, content] of parts)
      this.sql.exec(
        "INSERT OR REPLACE INTO package_files (integrity, path, part, content) VALUES (?, ?, ?, ?)",
        integrity,
        path,
        part,
        content,
      );
  }

  /**
   * Makes the package visible, once its parts are all written (a second commit changes nothing). With
   * `keepBytes` (a shared shard's), the least recently used other packages are dropped first until this
   * one fits within it: the caller runs this in one transaction.
   */
  commit(integrity: string, info: StoredPackageInfo, expectedParts: number, keepBytes?: number): void {
    const written = this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM package_files WHERE integrity = ?", integrity)
      .one().n;
    if (written !== expectedParts)
      throw new Error(
        `The package ${info.name}@${info.version} is missing parts (${written} of ${expectedParts}): not stored.`,
      );
    if (this.#info(integrity)) return;
    if (keepBytes !== undefined) this.#makeRoom(info.bytes, keepBytes);
    const now = Date.now();
    this.sql.exec(
      "INSERT INTO packages (integrity, name, version, files, bytes, binaries, has_types, stored_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      integrity,
      info.name,
      info.version,
      info.files,
      info.bytes,
      JSON.stringify(info.binaries),
      info.types ? 1 : 0,
      now,
      now,
    );
  }

  /** Bytes of the committed packages. */
  storedBytes(): number {
    return this.sql.exec<{ n: number }>("SELECT COALESCE(SUM(bytes), 0) AS n FROM packages").one().n;
  }

  /** Drops the least recently used packages until `bytes` more fit within `keepBytes`. */
  #makeRoom(bytes: number, keepBytes: number): void {
    let stored = this.storedBytes();
    while (stored + bytes > keepBytes) {
      const oldest = this.sql
        .exec<{ integrity: string; bytes: number }>(
          "SELECT integrity, bytes FROM packages ORDER BY used_at, integrity LIMIT 1",
        )
        .toArray()[0];
      if (!oldest) return;
      this.sql.exec("DELETE FROM packages WHERE integrity = ?", oldest.integrity);
      this.sql.exec("DELETE FROM package_files WHERE integrity = ?", oldest.integrity);
      stored -= oldest.bytes;
    }
  }

  /**
   * Removes the parts of a package that was never committed (its write failed halfway); a committed
   * package is left as it is.
   */
  discard(integrity: string): void {
    if (!this.#info(integrity)) this.sql.exec("DELETE FROM package_files WHERE integrity = ?", integrity);
  }

  /** Parts of a stored package in path order, from `after`, up to about `maxChars` of text per page. */
  read(integrity: string, after: { path: string; part: number } | undefined, maxChars: number): FilePage | undefined {
    // A read from the start is a use; the pages after it are the same one.
    const info = after ? this.#info(integrity) : this.info(integrity);
    if (!info) return undefined;
    const first = after ? {} : { info };
    const cursor = after
      ? this.sql.exec<{ path: string; part: number; content: string }>(
          "SELECT path, part, content FROM package_files WHERE integrity = ? AND (path > ? OR (path = ? AND part > ?)) ORDER BY path, part",
          integrity,
          after.path,
          after.path,
          after.part,
        )
      : this.sql.exec<{ path: string; part: number; content: string }>(
          "SELECT path, part, content FROM package_files WHERE integrity = ? ORDER BY path, part",
          integrity,
        );
    const parts: FilePart[] = [];
    let chars = 0;
    for (const row of cursor) {
      if (parts.length > 0 && chars + row.content.length > maxChars) {
        const last = parts[parts.length - 1] as FilePart;
        return { ...first, parts, next: { path: last[0], part: last[1] } };
      }
      parts.push([row.path, row.part, row.content]);
      chars += row.content.length;
    }
    return { ...first, parts };
  }

  /** One file's text (its parts joined), or undefined when the package or the file is not stored. */
  file(integrity: string, path: string): string | undefined {
    if (!this.info(integrity)) return undefined;
    const rows = this.sql
      .exec<{ content: string }>(
        "SELECT content FROM package_files WHERE integrity = ? AND path = ? ORDER BY part",
        integrity,
        path,
      )
      .toArray();
    return rows.length === 0 ? undefined : rows.map((row) => row.content).join("");
  }
}
