/**
 * The Durable Object that keeps verified packages (`PACKAGES`): a thin shell over `package-table.ts`.
 * Which object holds a package is `stored-packages.ts`'s choice (shared shards for the Workshop's
 * default registry, one object per workspace for its own registry); the object never fetches or checks
 * anything itself: the Worker writes only what it verified and unpacked.
 */

import { DurableObject } from "cloudflare:workers";
import { migrate } from "../storage/migrations.ts";
import {
  type FilePage,
  type FilePart,
  PACKAGE_STORE_MIGRATIONS,
  PackageTable,
  type StoredPackageInfo,
} from "./package-table.ts";

export class PackageStore extends DurableObject<unknown> {
  readonly #table: PackageTable;

  // Stores read no bindings: the Worker hands them what they need.
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    migrate(sql, (work) => ctx.storage.transactionSync(work), PACKAGE_STORE_MIGRATIONS);
    this.#table = new PackageTable(sql);
  }

  info(integrity: string): StoredPackageInfo | undefined {
    return this.#table.info(integrity);
  }

  putParts(integrity: string, parts: FilePart[]): void {
    this.ctx.storage.transactionSync(() => this.#table.putParts(integrity, parts));
  }

  commit(integrity: string, info: StoredPackageInfo, expectedParts: number, keepBytes?: number): void {
    this.ctx.storage.transactionSync(() => this.#table.commit(integrity, info, expectedParts, keepBytes));
  }

  discard(integrity: string): void {
    this.#table.discard(integrity);
  }

  read(integrity: string, after: { path: string; part: number } | undefined, maxChars: number): FilePage | undefined {
    return this.#table.read(integrity, after, maxChars);
  }

  file(integrity: string, path: string): string | undefined {
    return this.#table.file(integrity, path);
  }
}
