import type { ErrorReport } from "@gadgets/backend-utils/error-reporting";
import { MAX_ERROR_GROUPS_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErrorReportTable } from "./error-report-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";

function report(fingerprint: string, at: number, message = "boom"): ErrorReport {
  return { workspaceId: "w", fingerprint, name: "TypeError", message, stack: "at x", context: { runId: "r" }, at };
}

describe("ErrorReportTable", () => {
  let storage: SqliteStorage;
  let errors: ErrorReportTable;

  beforeEach(() => {
    storage = workspaceStorage();
    errors = new ErrorReportTable(storage.sql);
  });
  afterEach(() => storage.close());

  it("groups reports by fingerprint, counting them and keeping the latest sample", () => {
    errors.record(report("f1", 10, "first"));
    errors.record(report("f2", 15));
    errors.record(report("f1", 20, "second"));
    expect(errors.list()).toEqual([
      {
        fingerprint: "f1",
        name: "TypeError",
        message: "second",
        count: 2,
        firstSeen: 10,
        lastSeen: 20,
        lastContext: { runId: "r" },
        sampleStack: "at x",
      },
      expect.objectContaining({ fingerprint: "f2", count: 1 }),
    ]);
  });

  it(`keeps ${MAX_ERROR_GROUPS_PER_WORKSPACE} groups, dropping the least recently seen`, () => {
    for (let i = 0; i < MAX_ERROR_GROUPS_PER_WORKSPACE; i++) errors.record(report(`f${i}`, 100 + i));
    errors.record(report("f0", 10_000)); // seen again: now the most recent
    const count = () => storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM errors").one().n;
    expect(count()).toBe(MAX_ERROR_GROUPS_PER_WORKSPACE);
    errors.record(report("new", 20_000));
    expect(count()).toBe(MAX_ERROR_GROUPS_PER_WORKSPACE);
    const kept = storage.sql.exec<{ fingerprint: string }>("SELECT fingerprint FROM errors").toArray();
    const fingerprints = new Set(kept.map((row) => row.fingerprint));
    expect(fingerprints.has("f0")).toBe(true);
    expect(fingerprints.has("new")).toBe(true);
    expect(fingerprints.has("f1")).toBe(false);
  });
});
