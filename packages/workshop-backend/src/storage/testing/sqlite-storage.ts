/**
 * A Durable Object's `SqlStorage` over Node's built-in SQLite, so the workspace's table modules are
 * tested against the same SQL engine and the real migrations without starting workerd. It has what the
 * tables use: `exec` with bindings, and a cursor's `toArray`, `one` and iteration.
 */

import { DatabaseSync } from "node:sqlite";
import { migrate } from "../migrations.ts";
import { WORKSPACE_MIGRATIONS } from "../workspace-schema.ts";

type Row = Record<string, SqlStorageValue>;

class RowCursor<T extends Row> {
  readonly #rows: T[];
  #at = 0;

  constructor(rows: T[]) {
    this.#rows = rows;
  }

  toArray(): T[] {
    return this.#rows.slice(this.#at);
  }

  /** Like the runtime's: exactly one row, or it throws. */
  one(): T {
    const rest = this.toArray();
    if (rest.length !== 1) throw new Error(`Expected exactly one result from SQL query, but got ${rest.length}.`);
    return rest[0] as T;
  }

  next(): IteratorResult<T, undefined> {
    const row = this.#rows[this.#at];
    if (row === undefined) return { done: true, value: undefined };
    this.#at++;
    return { done: false, value: row };
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this.toArray()[Symbol.iterator]();
  }
}

export interface SqliteStorage {
  sql: SqlStorage;
  /** Runs `work` in a transaction, as `transactionSync` does: all of it or, when it throws, none. */
  transaction: (work: () => void) => void;
  close(): void;
}

/** An empty in-memory database. */
export function sqliteStorage(): SqliteStorage {
  const db = new DatabaseSync(":memory:");
  const exec = <T extends Row>(query: string, ...bindings: SqlStorageValue[]): RowCursor<T> => {
    // `prepare` compiles only the first statement; a script (the schema's, never with bindings) runs whole.
    if (bindings.length === 0 && query.trim().replace(/;$/, "").includes(";")) {
      db.exec(query);
      return new RowCursor<T>([]);
    }
    return new RowCursor(db.prepare(query).all(...bindings) as T[]);
  };
  const transaction = (work: () => void) => {
    db.exec("BEGIN");
    try {
      work();
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  };
  // The tables only call `exec`; the runtime's other members have no use here.
  const sql = { exec } as unknown as SqlStorage;
  return { sql, transaction, close: () => db.close() };
}

/** An in-memory database with the workspace's schema, as a new workspace has it. */
export function workspaceStorage(): SqliteStorage {
  const storage = sqliteStorage();
  migrate(storage.sql, storage.transaction, WORKSPACE_MIGRATIONS);
  return storage;
}
