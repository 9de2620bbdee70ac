/**
 * Schema migrations for a Durable Object's SQLite database: an ordered list, each step run once, in a
 * transaction, and the version kept in the database. Durable Objects refuse `PRAGMA user_version`
 * (SQLITE_AUTH), so the version lives in a one-row table of its own.
 */

export interface Migration {
  /** 1, 2, 3…: the version the database has once this step has run. */
  version: number;
  /** What the step changes, for people reading the list. */
  what: string;
  up(sql: SqlStorage): void;
}

const VERSION_TABLE = "schema_version";

/** The database's schema version: 0 for a database that has never been migrated. */
export function schemaVersion(sql: SqlStorage): number {
  const table = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", VERSION_TABLE).toArray();
  if (table.length === 0) return 0;
  return sql.exec<{ version: number }>(`SELECT version FROM ${VERSION_TABLE}`).toArray()[0]?.version ?? 0;
}

/**
 * Brings the database up to the last migration's version. Each step and its version bump commit
 * together, so a crash between steps leaves a database that resumes where it stopped.
 */
export function migrate(
  sql: SqlStorage,
  transaction: (work: () => void) => void,
  migrations: readonly Migration[],
): { from: number; to: number } {
  const from = schemaVersion(sql);
  let at = from;
  for (const migration of migrations) {
    if (migration.version <= at) continue;
    if (migration.version !== at + 1)
      throw new Error(`Migration ${migration.version} does not follow ${at}: the list must count up by one.`);
    transaction(() => {
      migration.up(sql);
      sql.exec(`CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version INTEGER NOT NULL)`);
      sql.exec(`DELETE FROM ${VERSION_TABLE}`);
      sql.exec(`INSERT INTO ${VERSION_TABLE} (version) VALUES (?)`, migration.version);
    });
    at = migration.version;
  }
  return { from, to: at };
}
