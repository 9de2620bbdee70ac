/**
 * The part of Node's `node:sqlite` that sqlite-storage.ts uses. This package is typed for workerd, not
 * Node, so Node's own types are left out of it.
 */
declare module "node:sqlite" {
  export class StatementSync {
    all(...bindings: SqlStorageValue[]): Record<string, SqlStorageValue>[];
  }
  export class DatabaseSync {
    constructor(location: string);
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
  }
}
