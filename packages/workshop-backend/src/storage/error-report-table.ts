/**
 * Errors reported in a workspace, aggregated by fingerprint: one group per kind of error with its count
 * and latest sample, the least recently seen pruned past `MAX_ERROR_GROUPS_PER_WORKSPACE`.
 */

import type { ErrorReport } from "@gadgets/backend-utils/error-reporting";
import type { ErrorGroup } from "@gadgets/workshop-shared/api";
import { MAX_ERROR_GROUPS_PER_WORKSPACE, MAX_LIST_LIMIT } from "@gadgets/workshop-shared/limits";

type ErrorRow = {
  fingerprint: string;
  name: string;
  message: string;
  count: number;
  first_seen: number;
  last_seen: number;
  context: string;
  stack: string;
};

export class ErrorReportTable {
  constructor(private readonly sql: SqlStorage) {}

  record(report: ErrorReport): void {
    this.sql.exec(
      `INSERT INTO errors (fingerprint, name, message, count, first_seen, last_seen, context, stack) VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (fingerprint) DO UPDATE SET count = count + 1, last_seen = excluded.last_seen, message = excluded.message,
       context = excluded.context, stack = excluded.stack`,
      report.fingerprint,
      report.name,
      report.message,
      report.at,
      report.at,
      JSON.stringify(report.context),
      report.stack,
    );
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM errors").one().n;
    if (count > MAX_ERROR_GROUPS_PER_WORKSPACE) {
      this.sql.exec(
        "DELETE FROM errors WHERE fingerprint IN (SELECT fingerprint FROM errors ORDER BY last_seen ASC LIMIT ?)",
        count - MAX_ERROR_GROUPS_PER_WORKSPACE,
      );
    }
  }

  /** The most recently seen groups first. */
  list(): ErrorGroup[] {
    return this.sql
      .exec<ErrorRow>("SELECT * FROM errors ORDER BY last_seen DESC LIMIT ?", MAX_LIST_LIMIT)
      .toArray()
      .map((row) => ({
        fingerprint: row.fingerprint,
        name: row.name,
        message: row.message,
        count: row.count,
        firstSeen: row.first_seen,
        lastSeen: row.last_seen,
        lastContext: JSON.parse(row.context) as Record<string, string>,
        sampleStack: row.stack,
      }));
  }
}
